"""The evidence sources this installation can run, each degrading to ``UNAVAILABLE``.

PyTorch is an optional extra (``pip install gendoc[torch]``): without it the
PyTorch source still answers, ``UNAVAILABLE`` with the reason, so a report
says what was not checked instead of silently checking less.
"""

from __future__ import annotations

import importlib.util

from gendoc.evidence.ort_registry import OrtRegistrySource
from gendoc.evidence.outcome import EvidenceSource, SourceEvidence, unavailable
from gendoc.model import Schema

TORCH_MISSING = "torch is not installed"


class MissingSource:
    """A source whose package is absent: every parameter ``UNAVAILABLE`` with ``reason``."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        self.status = f"unavailable: {reason}"

    def evaluate(self, schema: Schema) -> SourceEvidence:
        return unavailable(self.name, schema, self.reason)


def torch_source() -> EvidenceSource:
    """PyTorch autograd, or a :class:`MissingSource` when torch cannot be imported."""
    if importlib.util.find_spec("torch") is None:
        return MissingSource("pytorch", TORCH_MISSING)
    from gendoc.evidence.torch_source import TorchSource

    return TorchSource()


def default_sources() -> list[EvidenceSource]:
    """Every independent source, framework first: PyTorch, then onnxruntime's registry."""
    return [torch_source(), OrtRegistrySource()]
