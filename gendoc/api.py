"""The public API's ``build``: the build command's documents, written by the storage stage.

The commands (:mod:`gendoc.commands`) return values and write nothing; writing
is the storage stage's, and the command line's. ``gendoc.build`` writes too, so
it lives here, above the commands beside ``cli.py``, which calls it::

    from pathlib import Path
    import gendoc

    gendoc.build(Path("docs"), gendoc.RenderOptions(lang="zh"))
    report = gendoc.check(Path("docs"))
    if not report.ok:
        print(gendoc.format_check(report))
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gendoc.commands.build import DEFAULT_OPTIONS, build_documents
from gendoc.present.render import RenderOptions
from gendoc.storage.write import write_documents


def build(
    out: Path,
    options: RenderOptions = DEFAULT_OPTIONS,
    *,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> list[Path]:
    """Write Operators.md, Changelog.md and the -ml pair into ``out``; return what changed.

    ``snapshot`` (a file ``gendoc export`` wrote) stands in for the installed onnx. Each
    file is replaced atomically and only when its bytes change.
    """
    documents = build_documents(options, schemas=schemas, snapshot=snapshot)
    return write_documents(out, documents)
