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

1. An explicit framework refusal outranks a finite-difference slope: when a
   framework source refuses, ``GRADIENT`` votes of the numeric source are
   dropped (a slope through a running statistic or a weight the framework
   treats as constant says nothing about the operator's promise).
2. All remaining votes agree: that tag; ``strong`` with two or more sources,
   ``weak`` with one.
3. Votes disagree: ``conflict``, no suggestion; both sides are listed.
4. No votes: ``none`` ("no evidence").

A *tag problem* is a parameter tagged differentiable or non-differentiable
whose suggestion (strong or weak) is the other tag.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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

    @property
    def is_problem(self) -> bool:
        return (
            self.current is not Differentiability.UNDEFINED
            and self.suggested is not None
            and self.suggested is not self.current
        )

    def describe(self) -> str:
        if self.suggested is None:
            return "no evidence" if self.strength is Strength.NONE else "conflicting evidence"
        return f"{self.suggested.value} ({self.strength.value}: {'; '.join(self.support)})"


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
        if any(v is Verdict.REFUSED and s != numeric for s, v, _ in votes):
            votes = [(s, v, d) for s, v, d in votes if not (s == numeric and v is Verdict.GRADIENT)]
        found.append(_decide(schema, label, param.differentiability, votes))
    return found


def _decide(
    schema: Schema,
    label: str,
    current: Differentiability,
    votes: Iterable[tuple[str, Verdict, str]],
) -> Suggestion:
    sides: dict[Differentiability, list[str]] = {}
    for source, verdict, detail in votes:
        sides.setdefault(_VOTE[verdict], []).append(f"{source}: {verdict.value} ({detail})")
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
