"""``gendoc export``: the JSON snapshot of the installed onnx, for ``diff`` and other tools."""

from __future__ import annotations

from collections.abc import Sequence

from gendoc.collect import installed
from gendoc.model.snapshot import dumps


def export(*, schemas: Sequence[str] = ()) -> str:
    """The JSON snapshot of the installed onnx (plus ``schemas``), as text."""
    return dumps(installed.reference(schemas, with_examples=False))
