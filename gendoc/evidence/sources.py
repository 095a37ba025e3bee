"""The evidence sources this installation can run, each degrading to ``UNAVAILABLE``.

Every source is made from its line in :mod:`gendoc.evidence.source_registry`
(:func:`source`, :func:`default_sources`), for the site, ``gendoc audit
--evidence`` and ``gendoc suggest`` alike. PyTorch's verdicts come from the
record shipped with gendoc (:mod:`gendoc.evidence.torch_record`) where it
holds the operator version's interface, the installed torch otherwise
(:func:`live_torch_source`); onnx-ad's the same way
(:mod:`gendoc.evidence.onnx_ad_record`, :func:`live_onnx_ad_source`).
So the verdicts do not depend on whether torch (``pip install gendoc[torch]``) or
onnx-ad (``gendoc[evidence]``) is installed; without them a version a record
lacks is answered ``UNAVAILABLE`` with the reason, so a report says what was not
checked instead of silently checking less.
"""

from __future__ import annotations

import importlib.util

from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.interface import EvidenceSource, SourceEvidence, unavailable
from gendoc.evidence.source_registry import SOURCES
from gendoc.model.reference import Schema

TORCH_MISSING = say(N_("torch is not installed"))


class MissingSource:
    """A source whose package is absent: every parameter ``UNAVAILABLE`` with ``reason``."""

    def __init__(self, name: str, reason: Message) -> None:
        self.name = name
        self.reason = reason
        self.status = say(N_("unavailable: {reason}"), reason=reason)

    def evaluate(self, schema: Schema) -> SourceEvidence:
        return unavailable(self.name, schema, self.reason)


def live_torch_source() -> EvidenceSource:
    """The installed torch's autograd, or a :class:`MissingSource` when torch cannot be imported.

    Importing is the test (not a lookup of the package): an installation
    that hides torch, or a broken one, is told apart only by trying.
    """
    try:
        from gendoc.evidence.torch_source import TorchSource
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.split(".")[0] != "torch":
            raise
        return MissingSource("pytorch", TORCH_MISSING)
    return TorchSource()


ONNX_AD_MISSING = say(N_("onnx-ad is not installed (pip install 'gendoc[evidence]')"))


def live_onnx_ad_source() -> EvidenceSource:
    """onnx-ad run live, or a :class:`MissingSource` saying why it cannot run."""
    if importlib.util.find_spec("onnx_ad") is None:
        return MissingSource("onnx-ad", ONNX_AD_MISSING)
    try:
        from gendoc.evidence.onnx_ad_source import OnnxAdSource
    except Exception as exc:  # an onnx-ad that does not work with the installed onnx
        error = f"{type(exc).__name__}: {exc}".splitlines()[0]
        reason = say(N_("onnx-ad cannot be imported: {error}"), error=error)
        return MissingSource("onnx-ad", reason)
    return OnnxAdSource()


def source(name: str) -> EvidenceSource:
    """The registered source ``name`` (:mod:`gendoc.evidence.source_registry`), made as the
    site, the audit and ``gendoc suggest`` all make it."""
    return SOURCES[name].build()


def default_sources() -> list[EvidenceSource]:
    """Every source of the registry (:mod:`gendoc.evidence.source_registry`) that is made rather
    than passed in, in its order: PyTorch, onnxruntime's registry, then onnx-ad (each from
    its record where it holds the interface)."""
    return [info.build() for info in SOURCES.values() if info.make]
