"""The commands as typed functions: what the command line calls, and what Python code calls.

Each function takes plain values (paths, option dataclasses, sequences of
module names) and returns a result object; nothing here parses arguments or
prints. A Sphinx ``conf.py``, a build script or a test calls them directly::

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

from gendoc import installed
from gendoc.render import RenderOptions, render_documents
from gendoc.stale import CheckReport, check_documents
from gendoc.write import write_documents

DEFAULT_OPTIONS = RenderOptions()


def build(
    out: Path, options: RenderOptions = DEFAULT_OPTIONS, *, schemas: Sequence[str] = ()
) -> list[Path]:
    """Write Operators.md, Changelog.md and the -ml pair into ``out``; return what changed."""
    return write_documents(out, render_documents(installed.reference(schemas), options))


def check(
    out: Path, options: RenderOptions = DEFAULT_OPTIONS, *, schemas: Sequence[str] = ()
) -> CheckReport:
    """Compare the documents in ``out`` with what :func:`build` would write; write nothing."""
    documents = render_documents(installed.reference(schemas), options)
    return check_documents(out, documents, options, schemas)


def export(*, schemas: Sequence[str] = ()) -> str:
    """The JSON snapshot of the installed onnx (plus ``schemas``), as text."""
    from gendoc.snapshot import dumps

    return dumps(installed.reference(schemas, with_examples=False))
