"""What one evidence source says about the parameters of one operator version.

Every source (a framework's autograd, a gradient registry, an autodiff
library) answers in the same vocabulary, so the rule table in
:mod:`gendoc.evidence.verdict` can weigh them without knowing where they
came from.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from gendoc.model import Parameter, Schema


class Verdict(enum.StrEnum):
    """One source's answer for one input or output."""

    GRADIENT = "gradient"
    """A nonzero gradient was seen (or the registry emits one)."""
    ZERO = "zero"
    """The gradient exists but was zero at every probed point."""
    REFUSED = "refused"
    """The source explicitly does not differentiate it."""
    NOT_APPLICABLE = "not-applicable"
    """The question does not arise, e.g. an input the source never reads."""
    UNAVAILABLE = "unavailable"
    """No answer: package missing, no mapping, no data; ``detail`` says which."""


@dataclass(frozen=True)
class ParameterEvidence:
    """The verdict for one formal parameter; ``detail`` says why, in one line."""

    kind: str  # "input" or "output"
    name: str
    verdict: Verdict
    detail: str = ""

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name}"

    def to_dict(self) -> dict[str, str]:
        return {
            "parameter": self.label,
            "verdict": self.verdict.value,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class SourceEvidence:
    """All of one source's verdicts for one operator version.

    ``detail`` is what a reviewer needs to re-check the claim: the torch call
    as text, or the gradient builder's name with the onnxruntime release and
    commit it was read from.
    """

    source: str
    domain: str
    op: str
    version: int
    parameters: tuple[ParameterEvidence, ...]
    detail: str = ""

    def verdict_of(self, label: str) -> ParameterEvidence | None:
        return next((p for p in self.parameters if p.label == label), None)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "detail": self.detail,
            "parameters": [p.to_dict() for p in self.parameters],
        }


class EvidenceSource(Protocol):
    """A source of differentiability evidence: a name, a status line and one method."""

    name: str
    status: str
    """One line on what this source is (its version) or why it cannot answer."""

    def evaluate(self, schema: Schema) -> SourceEvidence: ...


def labelled(schema: Schema) -> Iterable[tuple[str, Parameter]]:
    """Every formal parameter with its kind, inputs first, in schema order."""
    for param in schema.inputs:
        yield "input", param
    for param in schema.outputs:
        yield "output", param


def unavailable(source: str, schema: Schema, reason: str, detail: str = "") -> SourceEvidence:
    """The answer of a source that has nothing to say about ``schema``."""
    return SourceEvidence(
        source=source,
        domain=schema.domain,
        op=schema.name,
        version=schema.since_version,
        parameters=tuple(
            ParameterEvidence(kind, p.name, Verdict.UNAVAILABLE, reason)
            for kind, p in labelled(schema)
        ),
        detail=detail,
    )
