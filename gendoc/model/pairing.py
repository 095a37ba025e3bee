"""Pairing: which parameter of one operator version is which parameter of another.

"Did this tag change between two versions?" must get one answer, whether
the lints, ``gendoc diff`` or the site asks it, so all three pair the inputs
and outputs of two versions here. Parameters pair by name first; leftovers
at the same position pair as a rename when their type and option agree (a
parameter renamed from ``X`` to ``input`` keeps its meaning). Anything less
alike is one parameter removed and one added.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gendoc.model.reference import Differentiability, Parameter, Schema

PARTS = ("input", "output")
"""The two kinds of formal parameter, in the order documents show them."""


@dataclass(frozen=True)
class Pair:
    """One parameter of the old version and the parameter it became in the new one."""

    part: str
    old: Parameter
    new: Parameter

    @property
    def renamed(self) -> bool:
        return self.old.name != self.new.name

    @property
    def tag_changed(self) -> bool:
        return self.old.differentiability is not self.new.differentiability


@dataclass(frozen=True)
class TagChange:
    """A paired parameter whose differentiability tag differs between the versions."""

    part: str
    name: str
    old: Differentiability
    new: Differentiability
    old_name: str


@dataclass(frozen=True)
class Pairing:
    """The parameters of one part (inputs or outputs) of two versions, matched.

    ``pairs`` are in the new version's order; ``removed`` and ``added`` keep
    their own version's order. ``reordered`` holds the names kept under the
    same name, in old and in new order, when that order changed.
    """

    part: str
    pairs: tuple[Pair, ...]
    removed: tuple[Parameter, ...]
    added: tuple[Parameter, ...]
    reordered: tuple[tuple[str, ...], tuple[str, ...]] | None = None


def pair_part(part: str, old: tuple[Parameter, ...], new: tuple[Parameter, ...]) -> Pairing:
    """Match the parameters of one part: by name, then same-position renames."""
    new_by_name = {p.name: p for p in new}
    old_names = {p.name for p in old}
    by_new_name: dict[str, Pair] = {
        p.name: Pair(part, p, new_by_name[p.name]) for p in old if p.name in new_by_name
    }
    for o, n in zip(old, new, strict=False):
        if (
            o.name not in new_by_name
            and n.name not in old_names
            and (o.type_str, o.option) == (n.type_str, n.option)
        ):
            by_new_name[n.name] = Pair(part, o, n)
    pairs = tuple(by_new_name[p.name] for p in new if p.name in by_new_name)
    paired_old = {pair.old.name for pair in pairs}
    kept = {pair.new.name for pair in pairs if not pair.renamed}
    old_order = tuple(p.name for p in old if p.name in kept)
    new_order = tuple(p.name for p in new if p.name in kept)
    return Pairing(
        part=part,
        pairs=pairs,
        removed=tuple(p for p in old if p.name not in paired_old),
        added=tuple(p for p in new if p.name not in by_new_name),
        reordered=(old_order, new_order) if old_order != new_order else None,
    )


def pair_versions(old: Schema, new: Schema) -> tuple[Pairing, Pairing]:
    """The pairing of the inputs, then of the outputs, of two versions."""
    return pair_part("input", old.inputs, new.inputs), pair_part("output", old.outputs, new.outputs)


def tag_changes(old: Schema, new: Schema) -> Iterator[TagChange]:
    """Every paired parameter whose tag differs, inputs first, in the new version's order."""
    for pairing in pair_versions(old, new):
        for pair in pairing.pairs:
            if pair.tag_changed:
                yield TagChange(
                    pair.part,
                    pair.new.name,
                    pair.old.differentiability,
                    pair.new.differentiability,
                    pair.old.name,
                )
