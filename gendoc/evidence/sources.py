"""The evidence sources this installation can run, each degrading to ``UNAVAILABLE``.

PyTorch is an optional extra (``pip install gendoc[torch]``), and so is
onnx-ad (``gendoc[evidence]``): without them each source still answers,
``UNAVAILABLE`` with the reason, so a report says what was not checked
instead of silently checking less.
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


ONNX_AD_MISSING = "onnx-ad is not installed (pip install 'gendoc[evidence]')"


def onnx_ad_source() -> EvidenceSource:
    """onnx-ad run live, or a :class:`MissingSource` saying why it cannot run."""
    if importlib.util.find_spec("onnx_ad") is None:
        return MissingSource("onnx-ad", ONNX_AD_MISSING)
    try:
        from gendoc.evidence.onnx_ad_source import OnnxAdSource
    except Exception as exc:  # an onnx-ad that does not work with the installed onnx
        reason = f"onnx-ad cannot be imported: {type(exc).__name__}: {exc}".splitlines()[0]
        return MissingSource("onnx-ad", reason)
    return OnnxAdSource()


def default_sources() -> list[EvidenceSource]:
    """Every independent source, frameworks first: PyTorch, onnxruntime's registry, then
    onnx-ad (its recorded verdicts; see :mod:`gendoc.evidence.onnx_ad_record`)."""
    from gendoc.evidence.onnx_ad_record import RecordedOnnxAdSource

    return [torch_source(), OrtRegistrySource(), RecordedOnnxAdSource()]
