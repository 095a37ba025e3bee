"""``gendoc build``: the documents of a reference, rendered and named by file; nothing written.

The commands are typed functions: the command line calls them, and so can
Python code (a Sphinx ``conf.py``, a build script, a test). Each takes plain
values (paths, option dataclasses, sequences of module names) and returns a
result; none parses arguments, prints or writes. ``gendoc.build``
(:mod:`gendoc.api`) is this command plus the storage stage's atomic writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.model.reference import Reference
from gendoc.present.render import RenderOptions, render_documents

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


def build_documents(
    options: RenderOptions = DEFAULT_OPTIONS,
    *,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> dict[str, str]:
    """Operators.md, Changelog.md and the -ml pair as ``gendoc build`` writes them, by file name.

    ``snapshot`` (a file ``gendoc export`` wrote) stands in for the installed onnx.
    """
    return render_documents(source_reference(schemas, snapshot), options)
