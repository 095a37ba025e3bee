"""``gendoc build``: write a reference's documents into a folder.

The commands are typed functions: the command line calls them, and so can
Python code (a Sphinx ``conf.py``, a build script, a test)::

    from pathlib import Path
    import gendoc

    gendoc.build(Path("docs"), gendoc.RenderOptions(lang="zh"))
    report = gendoc.check(Path("docs"))
    if not report.ok:
        print(gendoc.format_check(report))

Each takes plain values (paths, option dataclasses, sequences of module
names) and returns a result; none parses arguments or prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gendoc.collect import installed
from gendoc.present.render import RenderOptions, render_documents
from gendoc.storage.write import write_documents

DEFAULT_OPTIONS = RenderOptions()


def build(
    out: Path, options: RenderOptions = DEFAULT_OPTIONS, *, schemas: Sequence[str] = ()
) -> list[Path]:
    """Write Operators.md, Changelog.md and the -ml pair into ``out``; return what changed."""
    return write_documents(out, render_documents(installed.reference(schemas), options))
