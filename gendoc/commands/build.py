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

from gendoc.errors import UsageError
from gendoc.model.reference import Reference
from gendoc.present.render import RenderOptions, render_documents
from gendoc.storage.write import write_documents

DEFAULT_OPTIONS = RenderOptions()


def source_reference(schemas: Sequence[str] = (), snapshot: Path | None = None) -> Reference:
    """The model the documents are made from: the installed onnx (plus ``schemas``), or the
    snapshot ``gendoc export`` wrote (``--from``), which gives the same bytes."""
    if snapshot is None:
        from gendoc.collect import installed

        return installed.reference(schemas)
    if schemas:
        raise UsageError("--schemas and --from exclude each other: the snapshot holds them")
    from gendoc.model.snapshot_read import load_snapshot

    return load_snapshot(snapshot)


def build(
    out: Path,
    options: RenderOptions = DEFAULT_OPTIONS,
    *,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> list[Path]:
    """Write Operators.md, Changelog.md and the -ml pair into ``out``; return what changed.

    ``snapshot`` (a file ``gendoc export`` wrote) stands in for the installed onnx.
    """
    reference = source_reference(schemas, snapshot)
    return write_documents(out, render_documents(reference, options))
