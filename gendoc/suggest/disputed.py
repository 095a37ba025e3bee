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

from gendoc.evidence.verdict import Strength, Suggestion, Vote


@dataclass(frozen=True)
class Dispute:
    """A tag onnx set and the evidence on each side of it."""

    suggestion: Suggestion
    agreeing: tuple[Vote, ...]
    """Votes for onnx's tag."""
    disagreeing: tuple[Vote, ...]
    """Votes for the other tag."""


def disputes(suggestions: Iterable[Suggestion]) -> list[Dispute]:
    """Every parameter onnx tags whose evidence disputes it (the verdict's ``DISPUTED``)."""
    return [
        Dispute(s, s.against, s.support) for s in suggestions if s.strength is Strength.DISPUTED
    ]
