"""What the installed onnx says: where each schema is defined, and the evidence for its tags.

Read-only: the file and line are those onnx records when it registers a
schema (``OpSchema.file``/``OpSchema.line``), made relative to the checkout
by the ``onnx/defs/`` part of the path the build was made from.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from gendoc.errors import UsageError
from gendoc.evidence.history import settle
from gendoc.evidence.interface import EvidenceSource
from gendoc.evidence.source_registry import provenance_line
from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import Suggestion, combine
from gendoc.model.reference import Schema
from gendoc.suggest.decide import Location, SchemaKey


def installed_locations() -> dict[SchemaKey, Location]:
    """(domain, name, since_version) -> where the installed onnx was built from (read by
    :func:`gendoc.collect.schemas.schema_sources`, the onnx adapter)."""
    from gendoc.collect.schemas import schema_sources

    return {key: Location(path, line) for key, (path, line) in schema_sources().items()}


def source_lines(sources: Sequence[EvidenceSource]) -> list[str]:
    """One line per source naming what it ran (its registry label and status line: the torch
    release or the record's, the onnxruntime release tag and commit its registry was read
    from, ...)."""
    return [provenance_line(source) for source in sources]


def _check_record(schemas: Sequence[Schema]) -> None:
    """Without torch, stop when the record lacks a version torch would be asked about:
    the patch would silently be smaller than with torch installed."""
    from gendoc.evidence.record import interface_key
    from gendoc.evidence.torch_ops import TORCH_OPS
    from gendoc.evidence.torch_record import load_record

    if importlib.util.find_spec("torch") is not None:
        return  # the installed torch answers what the record lacks
    record = load_record()
    missing = [
        s.versioned_name
        for s in schemas
        if not s.domain and s.name in TORCH_OPS and interface_key(s) not in record["verdicts"]
    ]
    if missing:
        shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
        raise UsageError(
            f"torch is not installed, and the PyTorch record shipped with gendoc (torch "
            f"{record.get('torch', '?')}, onnx {record.get('onnx', '?')}) lacks {len(missing)} "
            f"operator versions of this onnx ({shown}): install torch (gendoc[torch])"
        )


def gather_suggestions(sources: Sequence[EvidenceSource] | None = None) -> list[Suggestion]:
    """Every source's evidence for every installed schema, combined by the rule table and
    settled per history and family (:func:`gendoc.evidence.history.settle`)."""
    from gendoc.collect import installed

    sources = default_sources() if sources is None else sources
    schemas = installed.reference(with_examples=False).schemas
    _check_record(schemas)
    weighed = [(s, combine(s, [source.evaluate(s) for source in sources])) for s in schemas]
    return [s for found in settle(weighed) for s in found]
