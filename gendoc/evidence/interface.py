"""What one evidence source says about the parameters of one operator version.

Every source (a framework's autograd, a gradient registry, an autodiff
library) answers in the same vocabulary, so the rule table in
:mod:`gendoc.evidence.verdict` can weigh them without knowing where they
came from.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Protocol

from gendoc.catalogs.i18n import NOTHING, Message
from gendoc.model.reference import (
    Differentiability,
    Parameter,
    ParameterRef,
    Schema,
    labelled,
)


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
    NOT_MEASURED = "not-measured"
    """The source was run but could not ask about it: the mapping passes the value to the
    framework as a Python scalar, so autograd never sees it. Not a refusal."""
    UNAVAILABLE = "unavailable"
    """No answer: package missing, no mapping, no data; ``detail`` says which."""


class Basis(enum.StrEnum):
    """What a verdict rests on: it decides the verdict's weight (:mod:`gendoc.evidence.verdict`)."""

    AUTOGRAD = "autograd"
    """A framework's autograd decided, through one native operator (or its dtype rule)."""
    COMPOSITE = "composite"
    """Autograd through an expression of several operations written for the mapping: what is
    measured is that expression, not one operator of the framework."""
    BUILDER = "builder"
    """A hand-written gradient builder emits the gradient, or does not."""
    POLICY = "policy"
    """A training shortcut (onnxruntime's stop-gradient table) or a framework's declared
    refusal (torch raising "not differentiable with respect to"): not a statement about the
    math."""
    SLOPE = "slope"
    """Finite differences measured the dependence."""
    SCHEMA = "schema"
    """The schema itself decides: its types, or onnx's tag of the same parameter in another
    version (:mod:`gendoc.evidence.history`). Never a source's vote."""


@dataclass(frozen=True)
class ParameterEvidence:
    """The verdict for one formal parameter; ``detail`` says why, in one line, as a message
    said in each page's or report's language."""

    parameter: ParameterRef
    verdict: Verdict
    detail: Message = NOTHING
    basis: Basis = Basis.AUTOGRAD

    def to_dict(self) -> dict[str, str]:
        return {
            "parameter": str(self.parameter),
            "verdict": self.verdict.value,
            "detail": self.detail.text,
            "basis": self.basis.value,
        }


@dataclass(frozen=True)
class SourceEvidence:
    """All of one source's verdicts for one operator version.

    ``detail`` is what a reviewer needs to re-check the claim: the torch call
    as text, or the gradient builder's name with the onnxruntime release and
    commit it was read from; a message, like a parameter's. ``unanswered`` is
    set by :func:`unavailable` alone: why the source answered nothing about
    this version, for the report's count of such versions by reason.
    """

    source: str
    domain: str
    op: str
    version: int
    parameters: tuple[ParameterEvidence, ...]
    detail: Message = NOTHING
    unanswered: Message | None = None

    def verdict_of(self, parameter: ParameterRef) -> ParameterEvidence | None:
        return next((p for p in self.parameters if p.parameter == parameter), None)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "detail": self.detail.text,
            "parameters": [p.to_dict() for p in self.parameters],
        }


class EvidenceSource(Protocol):
    """A source of differentiability evidence: a name, a status line and one method.

    The status line and the reasons a source gives for an operator version it
    cannot answer at all are shown in every language of the report, so they
    are :class:`~gendoc.catalogs.i18n.Message` objects, not strings: an ``N_``-marked
    English template and its arguments (``say(N_("torch {version}, {count}
    operators mapped"), version=..., count=...)``), with its translation in
    each catalog. Names, versions and code go in as arguments, untranslated;
    a message may be an argument of another (``unavailable: {reason}``). Such
    a version is answered with :func:`unavailable` and its reason; a
    parameter's own ``detail`` stays an English string.
    """

    name: str
    status: Message
    """One line on what this source is (its version) or why it cannot answer (``.text``:
    the English line, as the JSON report writes it)."""

    def evaluate(self, schema: Schema) -> SourceEvidence: ...


def unavailable(
    source: str, schema: Schema, reason: Message, detail: Message = NOTHING
) -> SourceEvidence:
    """The answer of a source that has nothing to say about ``schema``: every parameter
    ``UNAVAILABLE`` with ``reason``, also kept as the version's reason to count."""
    return SourceEvidence(
        source=source,
        domain=schema.domain,
        op=schema.name,
        version=schema.since_version,
        parameters=tuple(
            ParameterEvidence(ref, Verdict.UNAVAILABLE, reason) for ref, _ in labelled(schema)
        ),
        detail=detail,
        unanswered=reason,
    )


def untagged(schema: Schema) -> Schema:
    """``schema`` with every tag removed: what a source is shown when its answers are scored
    against onnx's tags (``benchmarks/evidence_vs_onnx_tags.py``), so none can echo them."""

    def bare(params: tuple[Parameter, ...]) -> tuple[Parameter, ...]:
        return tuple(replace(p, differentiability=Differentiability.UNDEFINED) for p in params)

    return replace(schema, inputs=bare(schema.inputs), outputs=bare(schema.outputs))
