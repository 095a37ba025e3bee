"""The types of numeric evidence: classes, reasons, and the results at every level.

From the bottom up: a :class:`PairEvidence` classifies one (input, output)
pair; probing one model gives a :class:`ModelEvidence`; one test case, in
formal parameter names, a :class:`CaseOutcome`; the merged cases of one
operator version an :class:`OperatorEvidence`; a whole run a
:class:`NumericResult`. Classes and reasons are enums; every human-readable
part is a :class:`~gendoc.audit.messages.Message`, so it can be translated.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gendoc.catalogs.i18n import N_, Arg, Message, say

EVIDENCE_NOTE = N_(
    "Finite differences are evidence, not proof: they see only the test inputs and a "
    "few probed elements, so a zero may hide a gradient elsewhere and a stable nonzero "
    "slope says nothing about what the operator promises to differentiate."
)


class PairClass(enum.StrEnum):
    """What finite differences say about one (input, output) pair."""

    NONZERO = "nonzero"
    ZERO = "zero"
    UNSTABLE = "unstable"
    NOT_FLOAT = "not-float"
    UNEVALUATED = "unevaluated"

    @property
    def precedence(self) -> int:
        """When probes or cases disagree, the lowest wins: one stable nonzero slope shows
        a smooth dependence, one unstable probe casts doubt on a zero, and "zero" needs
        every probe to agree."""
        return _PRECEDENCE[self]


_PRECEDENCE = {
    PairClass.NONZERO: 0,
    PairClass.UNSTABLE: 1,
    PairClass.ZERO: 2,
    PairClass.NOT_FLOAT: 3,
    PairClass.UNEVALUATED: 4,
}


class Reason(enum.StrEnum):
    """Why a pair is not-float or unevaluated, or why an operator version was not evaluated.

    ``template`` is the human-readable detail; its arguments (a dtype, an
    error text) come with each :class:`Cause`.
    """

    NON_FLOAT_INPUT = "non-float-input"
    NON_FLOAT_OUTPUT = "non-float-output"
    COMPLEX_INPUT = "complex-input"
    COMPLEX_OUTPUT = "complex-output"
    EMPTY_INPUT = "empty-input"
    EMPTY_OUTPUT = "empty-output"
    RANDOM = "random"
    OUT_OF_TIME = "out-of-time"
    CUT_OFF = "cut-off"
    EVALUATION_FAILED = "evaluation-failed"
    RERUN_FAILED = "rerun-failed"
    PERTURBED_FAILED = "perturbed-failed"
    BELOW_PRECISION = "below-precision"
    NOT_FINITE = "not-finite"
    NO_PROBE = "no-probe"
    INPUT_COUNT = "input-count"
    WORKER_FAILED = "worker-failed"
    NO_VERSION = "no-version"
    NO_CASE_RAN = "no-case-ran"

    @property
    def template(self) -> str:
        return _REASON_TEMPLATES[self]


_REASON_TEMPLATES = {
    Reason.NON_FLOAT_INPUT: N_("input is {dtype}"),
    Reason.NON_FLOAT_OUTPUT: N_("output is {dtype}"),
    Reason.COMPLEX_INPUT: N_("input is {dtype}; complex values are not probed"),
    Reason.COMPLEX_OUTPUT: N_("output is {dtype}; complex values are not probed"),
    Reason.EMPTY_INPUT: N_("input is empty"),
    Reason.EMPTY_OUTPUT: N_("output is empty"),
    Reason.RANDOM: N_("two identical runs gave different outputs (a random operator)"),
    Reason.OUT_OF_TIME: N_("time budget exhausted"),
    Reason.CUT_OFF: N_("stopped at the end of the time budget while it was being evaluated"),
    Reason.EVALUATION_FAILED: N_("evaluation failed: {error}"),
    Reason.RERUN_FAILED: N_("evaluation failed on a second run: {error}"),
    Reason.PERTURBED_FAILED: N_("evaluation failed on a perturbed input: {error}"),
    Reason.BELOW_PRECISION: N_("a step of {step:g} is below the precision of {dtype}"),
    Reason.NOT_FINITE: N_("output is not finite at the probed points"),
    Reason.NO_PROBE: N_("no probe was possible"),
    Reason.INPUT_COUNT: N_("the case has {given} inputs for {expected} graph inputs"),
    Reason.WORKER_FAILED: N_("worker failed: {error}"),
    Reason.NO_VERSION: N_("no version for opset {opset}"),
    Reason.NO_CASE_RAN: N_("no case could be evaluated"),
}


@dataclass(frozen=True)
class Cause:
    """A :class:`Reason` and its detail, kept apart so code tests the one and people read the
    other."""

    reason: Reason
    message: Message

    def to_dict(self) -> dict[str, object]:
        return {"reason": self.reason.value, **self.message.to_dict()}


def cause(reason: Reason, **args: Arg) -> Cause:
    return Cause(reason, say(reason.template, **args))


@dataclass(frozen=True)
class PairEvidence:
    """The evidence for one (input, output) pair, from one probe up to many cases.

    ``probes`` counts probes that gave a classification, ``nonzero`` and
    ``unstable`` how many of them were so; ``cause`` says why a pair is
    not-float or unevaluated; ``cases`` counts the test cases merged in.
    """

    input: str
    output: str
    kind: PairClass
    probes: int = 0
    nonzero: int = 0
    unstable: int = 0
    max_slope: float = 0.0
    cause: Cause | None = None
    cases: int = 1

    def merge(self, other: PairEvidence) -> PairEvidence:
        """Combine two bodies of evidence for the same pair; ties keep ``self``."""
        winner = self if self.kind.precedence <= other.kind.precedence else other
        return PairEvidence(
            self.input,
            self.output,
            winner.kind,
            self.probes + other.probes,
            self.nonzero + other.nonzero,
            self.unstable + other.unstable,
            max(self.max_slope, other.max_slope),
            winner.cause,
            self.cases + other.cases,
        )

    def renamed(self, input_name: str, output_name: str) -> PairEvidence:
        return PairEvidence(
            input_name,
            output_name,
            self.kind,
            self.probes,
            self.nonzero,
            self.unstable,
            self.max_slope,
            self.cause,
            self.cases,
        )

    @property
    def slope(self) -> float:
        """``max_slope`` to three significant digits: what reports show, equal on every
        machine."""
        return float(f"{self.max_slope:.3g}")

    @property
    def detail(self) -> Message:
        if self.kind is PairClass.NONZERO:
            return say(
                N_("stable nonzero at {nonzero} of {probes} probes (|slope| up to {slope:.3g})"),
                nonzero=self.nonzero,
                probes=self.probes,
                slope=self.slope,
            )
        if self.kind is PairClass.ZERO:
            return say(N_("zero at all {probes} probes"), probes=self.probes)
        if self.kind is PairClass.UNSTABLE:
            return say(
                N_("changes with the step size at {unstable} of {probes} probes"),
                unstable=self.unstable,
                probes=self.probes,
            )
        assert self.cause is not None, "a pair without evidence always has a cause"
        return self.cause.message

    def to_dict(self) -> dict[str, object]:
        detail = self.detail
        return {
            "input": self.input,
            "output": self.output,
            "class": self.kind.value,
            "reason": self.cause.reason.value if self.cause else None,
            "probes": self.probes,
            "nonzero": self.nonzero,
            "unstable": self.unstable,
            "max_slope": self.slope,
            "cases": self.cases,
            "detail": detail.text,
            "detail_id": detail.id,
            "detail_args": detail.args,
        }


@dataclass(frozen=True)
class ModelEvidence:
    """The result of probing one model.

    ``failure`` says why the model could not be evaluated at all; ``complete``
    is false when the time budget cut the probing short.
    """

    pairs: tuple[PairEvidence, ...]
    notes: tuple[Message, ...] = ()
    failure: Cause | None = None
    complete: bool = True

    @property
    def ran(self) -> bool:
        return self.failure is None


@dataclass(frozen=True)
class CaseOutcome:
    """The evidence from one test case, in formal parameter names."""

    name: str
    version: int
    pairs: tuple[PairEvidence, ...]
    notes: tuple[Message, ...]
    failure: Cause | None
    complete: bool


@dataclass(frozen=True)
class Skipped:
    """An operator version in scope whose test cases could not be used, and why."""

    domain: str
    op: str
    version: int
    cause: Cause

    def sort_key(self) -> tuple[str, str, int, str]:
        return (self.domain, self.op, self.version, self.cause.message.text)

    def to_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            **self.cause.to_dict(),
        }


@dataclass(frozen=True)
class OperatorEvidence:
    """The merged evidence for one operator version, pairs in schema order."""

    domain: str
    op: str
    version: int
    cases: tuple[str, ...]
    pairs: tuple[PairEvidence, ...]
    notes: tuple[Message, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "cases": list(self.cases),
            "pairs": [pair.to_dict() for pair in self.pairs],
            "notes": [note.to_dict() for note in self.notes],
        }


# Step sizes by precision of the evaluated input: float64, float32, anything coarser.
STEPS = ((1e-3, 1e-4), (1e-2, 1e-3), (1e-1, 1e-2))


@dataclass(frozen=True)
class ProbeSettings:
    """Everything that decides the numbers; part of the report, so runs compare.

    ``element_probes`` single elements are probed per input besides the one
    random direction; ``rtol`` is how far the quotients at the two step sizes
    may differ for a slope to count as stable; ``max_cases`` bounds the test
    cases per operator; cases picked beyond those needed to cover every
    parameter must have at most ``max_fill_elements`` floating-point input
    elements (a 3-D pooling case costs seconds per evaluation).
    """

    seed: int = 0
    element_probes: int = 4
    rtol: float = 0.05
    max_cases: int = 16
    max_fill_elements: int = 4096

    def to_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "element_probes": self.element_probes,
            "rtol": self.rtol,
            "max_cases": self.max_cases,
            "max_fill_elements": self.max_fill_elements,
            "steps": {
                "float64": list(STEPS[0]),
                "float32": list(STEPS[1]),
                "coarser": list(STEPS[2]),
            },
        }


DEFAULT_SETTINGS = ProbeSettings()


@dataclass(frozen=True)
class NumericResult:
    """All numeric evidence of one audit.

    ``with_data`` counts operators in scope that have test cases,
    ``operators`` holds the versions at least one case ran for, and
    ``not_evaluated`` the versions none did, with the cause.
    """

    settings: ProbeSettings
    with_data: int
    operators: tuple[OperatorEvidence, ...]
    not_evaluated: tuple[Skipped, ...]
    timed_out: bool

    @property
    def evaluated(self) -> int:
        """Distinct operators (not versions) with evidence."""
        return len({(e.domain, e.op) for e in self.operators})

    @property
    def case_count(self) -> int:
        return sum(len(e.cases) for e in self.operators)

    def counts(self) -> dict[PairClass, int]:
        totals = dict.fromkeys(PairClass, 0)
        for evidence in self.operators:
            for pair in evidence.pairs:
                totals[pair.kind] += 1
        return totals

    def evidence_for(self, domain: str, op: str) -> list[OperatorEvidence]:
        return [e for e in self.operators if (e.domain, e.op) == (domain, op)]

    def to_dict(self) -> dict[str, object]:
        return {
            "note": EVIDENCE_NOTE,
            "settings": self.settings.to_dict(),
            "coverage": {
                "operators_with_test_data": self.with_data,
                "operators_evaluated": self.evaluated,
                "cases_evaluated": self.case_count,
                "timed_out": self.timed_out,
            },
            "pairs": {kind.value: n for kind, n in self.counts().items()},
            "operators": [e.to_dict() for e in self.operators],
            "not_evaluated": [s.to_dict() for s in self.not_evaluated],
        }
