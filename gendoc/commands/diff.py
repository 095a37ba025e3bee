"""Diff: what changed between two operator references, for reviewers and for CI.

The command loads both sides (a snapshot file or the installed onnx) and
compares them (:func:`gendoc.model.compare.compare`); the report is formatted
by :func:`gendoc.present.diff_report.format_diff` and its GitHub annotations
follow :mod:`gendoc.present.annotations`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.model.compare import DiffReport, Side, compare
from gendoc.model.reference import Reference
from gendoc.model.snapshot import INSTALLED
from gendoc.model.snapshot_read import load_snapshot
from gendoc.model.type_strings import tensor_element_types

MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024
"""The largest snapshot ``gendoc diff`` reads: about 13 times onnx 1.23.2's (2.4 MB), so that
a comparison stays within seconds whatever the file holds."""


def load_reference(source: str, schema_modules: Iterable[str] = ()) -> Reference:
    """The Reference behind a ``gendoc diff`` argument: a snapshot file or ``installed``.

    ``installed`` collects the onnx of this environment, after importing
    ``schema_modules``, exactly as ``gendoc export`` would snapshot it. A
    file that happens to be named ``installed`` can be given as
    ``./installed``.
    """
    if source == INSTALLED:
        from gendoc.collect import installed

        return installed.reference(schema_modules, with_examples=False)
    path = Path(source)
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # missing or unreadable: load_snapshot says which
    if size > MAX_SNAPSHOT_BYTES:
        raise UsageError(
            f"{path}: {size:,} bytes, more than gendoc diff reads ({MAX_SNAPSHOT_BYTES:,})"
        )
    return load_snapshot(path)


def diff(old: str | Reference, new: str | Reference, *, schemas: Sequence[str] = ()) -> DiffReport:
    """Compare two references: snapshot paths, ``"installed"``, or Reference objects.

    ``schemas`` are imported before ``installed`` is collected.
    """
    if schemas and INSTALLED not in (old, new):
        warnings.warn(
            f"--schemas only applies to '{INSTALLED}'; both sides are snapshot files",
            stacklevel=2,
        )
    sides = []
    for source in (old, new):
        reference = source if isinstance(source, Reference) else load_reference(source, schemas)
        label = "reference" if isinstance(source, Reference) else source
        sides.append((Side(label, reference.onnx_version), reference))
    (old_side, old_ref), (new_side, new_ref) = sides
    known = tensor_element_types(
        tc.allowed_types
        for reference in (old_ref, new_ref)
        for schema in reference.schemas
        for tc in schema.type_constraints
    )
    return DiffReport(old_side, new_side, tuple(compare(old_ref, new_ref)), known)
