"""Combine the sources' verdicts into one suggested tag per parameter, by a fixed rule table.

Each verdict is a vote:

=================  ====================  =====================================
verdict            vote                  note
=================  ====================  =====================================
``GRADIENT``       differentiable
``ZERO``           non-differentiable    piecewise constant (Floor, Round, ...)
``REFUSED``        non-differentiable    an explicit refusal when from a
                                         framework (not from finite differences)
``NOT_APPLICABLE`` none
``UNAVAILABLE``    none
=================  ====================  =====================================

Then, in order:

1. A framework's gradient outranks another framework's refusal. The guide's
   Method 1 shows a tag by a backward that *exists* in a framework; a
   framework that does not differentiate an input shows only what it
   implements (onnxruntime's stop-gradient table lists Pow's exponent with
   the remark "differentiable, but gradient not yet implemented", and Clip's
   bounds, which torch's ``clamp`` differentiates).
2. A framework's refusal that still stands outranks a finite-difference
   slope: ``GRADIENT`` votes of the numeric source are dropped (a slope
   through a running statistic or a weight the framework treats as a
   hyperparameter says nothing about the operator's promise).
3. All remaining votes agree: that tag; ``strong`` with two or more sources,
   ``weak`` with one.
4. Votes disagree: ``conflict``, no suggestion; both sides are listed.
5. No votes: ``none`` ("no evidence").

Outranked votes are kept in ``Suggestion.outranked``, so a report can say
what was set aside and why.

A *tag problem* is a parameter tagged differentiable or non-differentiable
whose suggestion (strong or weak) is the other tag.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gendoc.evidence.outcome import SourceEvidence, Verdict, labelled
from gendoc.model import Differentiability, Schema

NUMERIC = "finite-differences"
"""The source name the numeric (finite-difference) evidence is given under."""

_VOTE = {
    Verdict.GRADIENT: Differentiability.DIFFERENTIABLE,
    Verdict.ZERO: Differentiability.NON_DIFFERENTIABLE,
    Verdict.REFUSED: Differentiability.NON_DIFFERENTIABLE,
}


class Strength(enum.StrEnum):
    STRONG = "strong"
    WEAK = "weak"
    CONFLICT = "conflict"
    NONE = "none"


Vote = tuple[str, Verdict, str]
"""One source's vote: its name, its verdict and the one-line detail."""


@dataclass(frozen=True)
class Suggestion:
    """The combined evidence for one parameter of one operator version."""

    domain: str
    op: str
    version: int
    parameter: str  # "input X" / "output Y"
    current: Differentiability
    suggested: Differentiability | None
    strength: Strength
    support: tuple[str, ...]  # "source: verdict (detail)" for the suggested side
    against: tuple[str, ...] = ()
    outranked: tuple[str, ...] = ()  # votes set aside by rules 1 and 2

    @property
    def is_problem(self) -> bool:
        return (
            self.current is not Differentiability.UNDEFINED
            and self.suggested is not None
            and self.suggested is not self.current
        )

    @property
    def hyperparameter(self) -> bool:
        """A slope was measured but a framework refuses: the input is treated as a setting."""
        return self.suggested is Differentiability.NON_DIFFERENTIABLE and any(
            s.startswith(f"{NUMERIC}: ") for s in self.outranked
        )

    def describe(self) -> str:
        if self.suggested is None:
            return "no evidence" if self.strength is Strength.NONE else "conflicting evidence"
        return f"{self.suggested.value} ({self.strength.value}: {'; '.join(self.support)})"


def _show(vote: Vote) -> str:
    source, verdict, detail = vote
    return f"{source}: {verdict.value} ({detail})"


def _outrank(votes: list[Vote], numeric: str) -> tuple[list[Vote], list[Vote]]:
    """Rules 1 and 2: the votes that count and those set aside."""
    frameworks = [v for v in votes if v[0] != numeric]
    if any(v[1] is Verdict.GRADIENT for v in frameworks):
        kept = [v for v in votes if v[0] == numeric or v[1] is not Verdict.REFUSED]
    else:
        kept = list(votes)
    if any(v[1] is Verdict.REFUSED and v[0] != numeric for v in kept):
        kept = [v for v in kept if not (v[0] == numeric and v[1] is Verdict.GRADIENT)]
    return kept, [v for v in votes if v not in kept]


def combine(
    schema: Schema, evidence: Sequence[SourceEvidence], *, numeric: str = NUMERIC
) -> list[Suggestion]:
    """One suggestion per parameter of ``schema`` from every source's evidence for it."""
    found = []
    for kind, param in labelled(schema):
        label = f"{kind} {param.name}"
        votes = [
            (e.source, p.verdict, p.detail)
            for e in evidence
            if (p := e.verdict_of(label)) is not None and p.verdict in _VOTE
        ]
        kept, outranked = _outrank(votes, numeric)
        suggestion = _decide(schema, label, param.differentiability, kept)
        found.append(replace(suggestion, outranked=tuple(map(_show, outranked))))
    return found


def _decide(
    schema: Schema,
    label: str,
    current: Differentiability,
    votes: Iterable[Vote],
) -> Suggestion:
    sides: dict[Differentiability, list[str]] = {}
    for vote in votes:
        sides.setdefault(_VOTE[vote[1]], []).append(_show(vote))
    base = (schema.domain, schema.name, schema.since_version, label, current)
    if not sides:
        return Suggestion(*base, None, Strength.NONE, ())
    if len(sides) > 1:
        diff = tuple(sides[Differentiability.DIFFERENTIABLE])
        non = tuple(sides[Differentiability.NON_DIFFERENTIABLE])
        return Suggestion(*base, None, Strength.CONFLICT, diff, non)
    ((tag, support),) = sides.items()
    strength = Strength.STRONG if len(support) >= 2 else Strength.WEAK
    return Suggestion(*base, tag, strength, tuple(support))
