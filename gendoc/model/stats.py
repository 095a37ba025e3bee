"""Counting tags: the figures behind the top statement, the contents column and coverage."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gendoc.model.reference import Differentiability, Parameter, Schema


@dataclass(frozen=True)
class Tally:
    """How many parameters carry each tag."""

    differentiable: int = 0
    non_differentiable: int = 0
    undefined: int = 0

    @property
    def total(self) -> int:
        return self.differentiable + self.non_differentiable + self.undefined

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.differentiable + other.differentiable,
            self.non_differentiable + other.non_differentiable,
            self.undefined + other.undefined,
        )

    def percent(self, count: int) -> str:
        """``count`` as a share of the total, one decimal, for display."""
        return f"{100 * count / self.total:.1f}%" if self.total else "0.0%"


def tally(parameters: Iterable[Parameter]) -> Tally:
    counts = {d: 0 for d in Differentiability}
    for p in parameters:
        counts[p.differentiability] += 1
    return Tally(
        counts[Differentiability.DIFFERENTIABLE],
        counts[Differentiability.NON_DIFFERENTIABLE],
        counts[Differentiability.UNDEFINED],
    )


def tally_schemas(schemas: Iterable[Schema]) -> Tally:
    total = Tally()
    for schema in schemas:
        total = total + tally(schema.parameters)
    return total
