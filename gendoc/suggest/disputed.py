"""Parameters onnx tags that the evidence disagrees with: listed for a reviewer, never changed.

A patch only fills undefined tags. Where onnx already set a tag and a source
votes the other way (a finite-difference slope through a value frameworks
keep as a buffer, a framework that implements no backward, an onnx error),
the reviewer sees both sides: onnx's tag with the votes that agree with it,
and the votes against it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model import Differentiability

DIFFERENTIABLE = Differentiability.DIFFERENTIABLE
UNDEFINED = Differentiability.UNDEFINED


@dataclass(frozen=True)
class Dispute:
    """A tag onnx set and the evidence on each side of it."""

    suggestion: Suggestion
    agreeing: tuple[str, ...]
    """Votes for onnx's tag."""
    disagreeing: tuple[str, ...]
    """Votes for the other tag."""


def disputes(suggestions: Iterable[Suggestion]) -> list[Dispute]:
    """Every parameter onnx tags whose evidence (suggestion or one side of a conflict) disagrees."""
    found = []
    for s in suggestions:
        if s.current is UNDEFINED:
            continue
        if s.suggested is not None and s.suggested is not s.current:
            found.append(Dispute(s, (), s.support))
        elif s.strength is Strength.CONFLICT:
            # a conflict keeps the differentiable side in support, the other in against
            ours, theirs = (s.support, s.against)
            if s.current is not DIFFERENTIABLE:
                ours, theirs = theirs, ours
            found.append(Dispute(s, ours, theirs))
    return found
