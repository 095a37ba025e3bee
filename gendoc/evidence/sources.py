"""The evidence sources this installation can run, each degrading to ``UNAVAILABLE``.

PyTorch's verdicts come from one function, :func:`torch_source`, for the
site, ``gendoc audit --evidence`` and ``gendoc suggest`` alike: the record
shipped with gendoc (:mod:`gendoc.evidence.torch_record`) where it holds the
operator version's interface, the installed torch otherwise. So the verdicts
do not depend on whether torch (an optional extra, ``pip install
gendoc[torch]``) is installed; without it a version the record lacks is
answered ``UNAVAILABLE`` with the reason, so a report says what was not
checked instead of silently checking less.
"""

from __future__ import annotations

from gendoc.evidence.ort_registry import OrtRegistrySource
from gendoc.evidence.outcome import EvidenceSource, SourceEvidence, unavailable
from gendoc.evidence.torch_record import RecordedTorchSource
from gendoc.i18n import N_, Message, say
from gendoc.model import Schema

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


def torch_source() -> EvidenceSource:
    """PyTorch's verdicts: recorded where the record holds the interface, asked live otherwise."""
    return RecordedTorchSource()


def default_sources() -> list[EvidenceSource]:
    """Every independent source, framework first: PyTorch, then onnxruntime's registry."""
    return [torch_source(), OrtRegistrySource()]
