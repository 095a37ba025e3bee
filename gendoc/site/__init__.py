"""The bilingual documentation site: an mkdocs plugin that generates the reference.

Nothing generated is committed. On every build the plugin collects the
model, renders the operator reference, the coverage page and the tag audit
in each language, and hands them to mkdocs as in-memory files.

Importing the plugin imports onnx, and with it numpy, whose OpenBLAS starts a thread per
further core as it loads; each spins for about 0.1 s of processor time before it sleeps. The
site multiplies no matrices, so unless the environment says otherwise, OpenBLAS is asked for
one thread (it reads ``OPENBLAS_NUM_THREADS`` once, as it loads: numpy imported already keeps
its threads).
"""

import os
import sys

if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
