"""Combine the sources' verdicts into one verdict per parameter, by one ordered rule registry.

Each verdict is a vote with a weight, from what it rests on
(:class:`~gendoc.evidence.interface.Basis`):

=================  ====================  =====================================
verdict            vote                  note
=================  ====================  =====================================
``GRADIENT``       differentiable
``ZERO``           non-differentiable    piecewise constant (Floor, Round, ...)
``REFUSED``        non-differentiable    the source does not differentiate it
``NOT_MEASURED``   none                  a Python scalar of our torch mapping
``NOT_APPLICABLE`` none
``UNAVAILABLE``    none
=================  ====================  =====================================

=============  ======  ==================================================
basis          weight  why
=============  ======  ==================================================
``autograd``   1       a framework's autograd decided, one native operator
``builder``    1       a hand-written gradient builder
``slope``      1       finite differences measured it
``composite``  1/2     autograd through an expression we wrote
``policy``     1/2     a training shortcut (stop-gradient table), a
                       framework's declared refusal or a table of declared
                       zero derivatives (onnx-ad's)
``schema``     2       the schema decides (:mod:`gendoc.evidence.history`)
=============  ======  ==================================================

First the *outranking*: a gradient a framework computes (autograd through a
native operator, or a gradient builder) sets aside every refusal; a stable
finite-difference slope sets aside framework policy (refusals of the basis
``policy``). A refusal says a source does not compute a gradient:
onnxruntime's stop-gradient table lists Clip's bounds, which torch's
``clamp`` differentiates, and frameworks keep BatchNormalization's running
statistics as buffers although the output has a slope in them. A slope
against a framework's own finding (autograd tracing no path, a builder that
never reads an output's gradient) is a conflict, not a win. A composite
expression's gradient sets nothing aside: it may be our formula's. A tag
onnx set also outranks a policy vote against it: a training shortcut or a
framework's declared refusal is not a measurement that could dispute a
reviewed tag. The set-aside votes stay in :attr:`Suggestion.outranked`.

Then the first rule of :data:`VERDICT_RULES` whose condition holds decides. A
side is *strong* at a weight of 2 or more (two independent full-weight
sources); when the votes on an undefined tag disagree, a side that outweighs
the other by a full source or more wins, weakly (two frameworks that do not
differentiate an output against one slope), and a closer call is a
conflict. Policy alone (training shortcuts, declared zero derivatives)
never suggests a tag. The evidence never proposes to change a tag onnx
already set: where the votes against it *outweigh* every vote backing it
(counted or set aside), the verdict is ``disputed``, with both sides and a
:class:`DisputeKind`. A *convention* (the mathematics finds a slope, the
frameworks keep the value constant: loss weights, running statistics) is
``GD207``, information only; where the mathematics contradicts the tag the
rule says how firmly (``GD201``: strong and nothing of full weight backs the
tag; ``GD206``: something backs it, outweighed; ``GD202``: weak). Votes
against a tag that do not outweigh its backing are kept as a note
(:attr:`Suggestion.noted`), never a dispute.

A suggestion names the rule that decided (:attr:`Suggestion.rule`) and keeps
the votes as data. What each rule reports (the audit finding and its
message) and a verdict said in one line are in
:mod:`gendoc.evidence.verdict_text`: this module decides, that one words.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gendoc.evidence.interface import Basis, SourceEvidence, Verdict
from gendoc.evidence.source_registry import Role, info
from gendoc.model.reference import Differentiability, ParameterRef, Schema, labelled

DIFF = Differentiability.DIFFERENTIABLE
NON_DIFF = Differentiability.NON_DIFFERENTIABLE
UNDEFINED = Differentiability.UNDEFINED

TAG_OF = {Verdict.GRADIENT: DIFF, Verdict.ZERO: NON_DIFF, Verdict.REFUSED: NON_DIFF}
"""The tag each voting verdict speaks for; the other verdicts do not vote."""

STRONG_WEIGHT_OF_SCHEMA = 2.0
"""A decision of the schema (:mod:`gendoc.evidence.history`) is strong on its own."""

WEIGHT = {
    Basis.AUTOGRAD: 1.0,
    Basis.BUILDER: 1.0,
    Basis.SLOPE: 1.0,
    Basis.COMPOSITE: 0.5,
    Basis.POLICY: 0.5,
    Basis.SCHEMA: STRONG_WEIGHT_OF_SCHEMA,
}
STRONG_WEIGHT = 2.0
"""The weight of a strong side: two independent full-weight sources."""

_SETS_ASIDE = {
    Basis.AUTOGRAD: frozenset(Basis),
    Basis.BUILDER: frozenset(Basis),
    Basis.SLOPE: frozenset({Basis.POLICY}),
}
"""The bases of a gradient vote that set refusals aside, with the bases of the refusals
each sets aside."""


class DisputeKind(enum.StrEnum):
    """What a dispute of a tag onnx set is about: the reviewer's first question."""

    MATH = "math"
    """The mathematics contradicts the tag: a gradient a framework computes, or a stable
    slope no framework's refusal backs, against non-differentiable; a measured zero against
    differentiable. A tag error, reported as a warning or an error."""
    CONVENTION = "convention"
    """Differentiable by the mathematics (a slope), treated as a constant by the frameworks
    (their refusals, no measured zero): a convention, never an error or a warning."""


class Strength(enum.StrEnum):
    STRONG = "strong"
    WEAK = "weak"
    CONFLICT = "conflict"
    DISPUTED = "disputed"
    """The evidence contradicts a tag onnx set: reported with both sides, never applied."""
    NONE = "none"


@dataclass(frozen=True)
class Vote:
    """One source's vote on one parameter: data (shown by
    :func:`gendoc.evidence.verdict_text.vote_text`)."""

    source: str
    verdict: Verdict
    detail: str
    basis: Basis = Basis.AUTOGRAD

    @property
    def tag(self) -> Differentiability:
        return TAG_OF[self.verdict]

    @property
    def weight(self) -> float:
        """The basis's weight times the source's (:mod:`gendoc.evidence.source_registry`)."""
        return WEIGHT[self.basis] * info(self.source).weight

    @property
    def by_framework(self) -> bool:
        """A framework computes this itself: autograd through its own operator, or a
        gradient builder (not our composite expression, not a policy)."""
        framework = info(self.source).role is Role.FRAMEWORK
        return framework and self.basis in (Basis.AUTOGRAD, Basis.BUILDER)


def weight_of(votes: Sequence[Vote]) -> float:
    return sum(v.weight for v in votes)


@dataclass(frozen=True)
class Ballot:
    """One parameter's votes after outranking: what every rule's condition reads."""

    current: Differentiability
    counted: tuple[Vote, ...]
    set_aside: tuple[Vote, ...]

    def side(self, tag: Differentiability) -> tuple[Vote, ...]:
        return tuple(v for v in self.counted if v.tag is tag)

    @property
    def tags(self) -> frozenset[Differentiability]:
        return frozenset(v.tag for v in self.counted)

    @property
    def defined(self) -> bool:
        return self.current is not UNDEFINED

    @property
    def against(self) -> tuple[Vote, ...]:
        """Counted votes for the other tag than the defined one."""
        return tuple(v for v in self.counted if self.defined and v.tag is not self.current)

    @property
    def backing(self) -> tuple[Vote, ...]:
        """Votes for the defined tag, counted or set aside."""
        votes = (*self.counted, *self.set_aside)
        return tuple(v for v in votes if self.defined and v.tag is self.current)

    @property
    def heavier(self) -> Differentiability | None:
        """The tag whose counted votes weigh more, ``None`` on a tie."""
        diff, non = weight_of(self.side(DIFF)), weight_of(self.side(NON_DIFF))
        return None if diff == non else (DIFF if diff > non else NON_DIFF)

    @property
    def margin(self) -> float:
        """By how much one side's counted votes outweigh the other's."""
        return abs(weight_of(self.side(DIFF)) - weight_of(self.side(NON_DIFF)))

    @property
    def outweighs(self) -> bool:
        """The counted votes against the tag weigh more than every vote backing it."""
        return bool(self.against) and weight_of(self.against) > weight_of(self.backing)

    @property
    def kind(self) -> DisputeKind:
        """A convention when no framework computes the gradient itself (the mathematics
        sources, or our composite expression, find it) and the other side holds refusals and
        declarations only (nothing measured a zero); otherwise the mathematics contradicts
        the tag."""
        votes = (*self.counted, *self.set_aside)
        diff = [v for v in votes if v.tag is DIFF]
        non = [v for v in votes if v.tag is NON_DIFF]
        by_math = bool(diff) and not any(v.by_framework for v in diff)
        declared = bool(non) and all(
            v.verdict is Verdict.REFUSED or v.basis is Basis.POLICY for v in non
        )
        return DisputeKind.CONVENTION if by_math and declared else DisputeKind.MATH

    @property
    def policy_only(self) -> bool:
        """Every counted vote is a policy: a training shortcut or a declaration."""
        return bool(self.counted) and all(v.basis is Basis.POLICY for v in self.counted)

    @property
    def strong(self) -> bool:
        """One side only, and it weighs as much as two independent full-weight sources."""
        return len(self.tags) == 1 and weight_of(self.counted) >= STRONG_WEIGHT


def _outrank(
    votes: Sequence[Vote], current: Differentiability
) -> tuple[tuple[Vote, ...], tuple[Vote, ...]]:
    """The votes that count, and those set aside: every refusal when a gradient exists, and
    a policy vote against a tag onnx set (a training shortcut does not dispute a review)."""
    outranked = frozenset().union(
        *(_SETS_ASIDE.get(v.basis, ()) for v in votes if v.verdict is Verdict.GRADIENT)
    )
    kept = tuple(
        v
        for v in votes
        if not (v.verdict is Verdict.REFUSED and v.basis in outranked)
        and not (current is not UNDEFINED and v.basis is Basis.POLICY and v.tag is not current)
    )
    return kept, tuple(v for v in votes if v not in kept)


@dataclass(frozen=True)
class Suggestion:
    """The combined evidence for one parameter of one operator version.

    ``suggested`` is the tag the counted evidence speaks for (``None``: none,
    or both tags); for a tag onnx set that it contradicts, ``strength`` is
    ``DISPUTED``, ``support`` the votes against the tag and ``against`` those
    backing it. In a conflict on an undefined tag ``support`` votes
    differentiable and ``against`` non-differentiable. ``rule`` names the
    entry of :data:`VERDICT_RULES` that decided.
    """

    domain: str
    op: str
    version: int
    parameter: ParameterRef
    current: Differentiability
    suggested: Differentiability | None
    strength: Strength
    support: tuple[Vote, ...]
    against: tuple[Vote, ...] = ()
    outranked: tuple[Vote, ...] = ()
    rule: str = ""
    kind: DisputeKind | None = None
    """For a dispute, what it is about (:class:`DisputeKind`); ``None`` otherwise."""
    noted: tuple[Vote, ...] = ()
    """Votes against a tag onnx set that the votes backing it outweigh: a note on the
    evidence page, not a dispute."""
    shared: str = ""
    """The operator version that decided the verdict when it is not this one's own
    (``"GRU-22"``, shown as "as GRU-22"; :mod:`gendoc.evidence.history`)."""

    @property
    def is_problem(self) -> bool:
        """A tag onnx set that the evidence disputes."""
        return self.strength is Strength.DISPUTED

    @property
    def is_math_dispute(self) -> bool:
        """A dispute where the mathematics contradicts onnx's tag (not a convention)."""
        return self.is_problem and self.kind is DisputeKind.MATH


@dataclass(frozen=True)
class VerdictRule:
    """One verdict rule: its name, when it applies and how strong the verdict it makes is.
    What it reports is :data:`gendoc.evidence.verdict_text.REPORTS`, by its name."""

    name: str
    when: Callable[[Ballot], bool]
    strength: Callable[[Ballot], Strength]


def _agreed(b: Ballot) -> Strength:
    return Strength.STRONG if b.strong else Strength.WEAK


def _fixed(strength: Strength) -> Callable[[Ballot], Strength]:
    return lambda b: strength


VERDICT_RULES: tuple[VerdictRule, ...] = (
    VerdictRule(
        "no-evidence-undefined", lambda b: not b.defined and not b.counted, _fixed(Strength.NONE)
    ),
    VerdictRule(
        "policy-only",
        lambda b: not b.counted and any(v.tag is not b.current for v in b.set_aside),
        _fixed(Strength.NONE),
    ),
    VerdictRule("no-evidence", lambda b: not b.counted, _fixed(Strength.NONE)),
    VerdictRule("policy-alone", lambda b: not b.defined and b.policy_only, _fixed(Strength.NONE)),
    VerdictRule(
        "outweighed",
        lambda b: not b.defined and len(b.tags) > 1 and b.margin >= 1.0,
        _fixed(Strength.WEAK),
    ),
    VerdictRule("conflict", lambda b: not b.defined and len(b.tags) > 1, _fixed(Strength.CONFLICT)),
    VerdictRule("agreed", lambda b: not b.defined and b.strong, _fixed(Strength.STRONG)),
    VerdictRule("suggested", lambda b: not b.defined, _fixed(Strength.WEAK)),
    VerdictRule(
        "convention",
        lambda b: b.outweighs and b.kind is DisputeKind.CONVENTION,
        _fixed(Strength.DISPUTED),
    ),
    VerdictRule(
        "contradicted",
        lambda b: (
            b.outweighs
            and len(b.tags) == 1
            and weight_of(b.against) >= STRONG_WEIGHT
            and weight_of(b.backing) < 1.0
        ),
        _fixed(Strength.DISPUTED),
    ),
    VerdictRule("disputed", lambda b: b.outweighs and bool(b.backing), _fixed(Strength.DISPUTED)),
    VerdictRule("questioned", lambda b: b.outweighs, _fixed(Strength.DISPUTED)),
    VerdictRule("noted", lambda b: bool(b.against), _agreed),
    VerdictRule(
        "refusal-set-aside", lambda b: any(v.tag is not b.current for v in b.set_aside), _agreed
    ),
    VerdictRule("agrees", lambda b: True, _agreed),
)
"""The verdict rules, in order: the first whose condition holds decides."""


def _decide(schema: Schema, parameter: ParameterRef, ballot: Ballot) -> Suggestion:
    rule = next(r for r in VERDICT_RULES if r.when(ballot))
    strength = rule.strength(ballot)
    tags = ballot.tags
    suggested = next(iter(tags)) if len(tags) == 1 else None
    kind, noted = None, ()
    if strength is Strength.DISPUTED:
        support, against = ballot.against, ballot.backing
        suggested = support[0].tag
        kind = ballot.kind
    elif ballot.defined and ballot.against:
        suggested, noted = ballot.current, ballot.against
        support, against = ballot.backing, ()
    elif len(tags) > 1 and strength is Strength.WEAK and ballot.heavier is not None:
        suggested = ballot.heavier
        support = ballot.side(suggested)
        against = tuple(v for v in ballot.counted if v.tag is not suggested)
    elif len(tags) > 1:
        support, against = ballot.side(DIFF), ballot.side(NON_DIFF)
    else:
        support, against = ballot.counted, ()
    if rule.name == "policy-alone":
        suggested = None
    return Suggestion(
        schema.domain,
        schema.name,
        schema.since_version,
        parameter,
        ballot.current,
        suggested,
        strength,
        support,
        against,
        ballot.set_aside,
        rule.name,
        kind,
        noted,
    )


def votes_on(evidence: Sequence[SourceEvidence], parameter: ParameterRef) -> list[Vote]:
    """Every source's voting verdict on one parameter, in source order."""
    return [
        Vote(e.source, p.verdict, p.detail.text, p.basis)
        for e in evidence
        if (p := e.verdict_of(parameter)) is not None and p.verdict in TAG_OF
    ]


def combine(schema: Schema, evidence: Sequence[SourceEvidence]) -> list[Suggestion]:
    """One suggestion per parameter of ``schema`` from every source's evidence for it."""
    found = []
    for ref, param in labelled(schema):
        counted, set_aside = _outrank(votes_on(evidence, ref), param.differentiability)
        found.append(_decide(schema, ref, Ballot(param.differentiability, counted, set_aside)))
    return found
