"""``gendoc export``: the whole reference of the installed onnx as one JSON snapshot.

The snapshot holds the model with its examples and details, and gendoc's evidence
verdicts: the combined verdict of the evidence sources on every parameter they can judge,
as ``gendoc audit --evidence`` without finite differences (too slow for an export) and the
site's evidence pages weigh them, through the same public functions; and where each
version runs and trains, from the records gendoc ships (the site's "Runs on" tables).
"""

from __future__ import annotations

from collections.abc import Sequence

from gendoc.audit.snapshot_verdicts import export_snapshot
from gendoc.collect import installed
from gendoc.model.reference import Reference
from gendoc.model.snapshot import encode
from gendoc.runtime.operator_support import runtime_support


def installed_reference(schemas: Sequence[str] = ()) -> Reference:
    """The installed onnx's model (plus ``schemas``) with all that a snapshot holds."""
    return installed.reference(schemas, with_examples=True, with_details=True)


def export(*, schemas: Sequence[str] = ()) -> str:
    """The JSON snapshot of the installed onnx (plus ``schemas``), as text."""
    reference = installed_reference(schemas)
    return encode(export_snapshot(reference, runtime=runtime_support(reference)))
