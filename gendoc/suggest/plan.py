"""Decide which ``Input``/``Output`` calls change: the rules between verdicts and sources.

A suggestion qualifies when it names a tag, its strength is one the user
accepts, and the tag differs from the current one. A call in a schema's own
builder chain changes with that schema's suggestion. A call in a helper
changes only when every schema reaching it that has the parameter carries a
qualifying suggestion for the same tag: otherwise the patch would retag
operators no evidence speaks for, so the call is left alone and reported.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model import Differentiability
from gendoc.suggest.source import Block, Call, SourceTree

SchemaKey = tuple[str, str, int]
"""(domain, operator, since_version)."""

CATEGORY = {
    Differentiability.DIFFERENTIABLE: "Differentiable",
    Differentiability.NON_DIFFERENTIABLE: "NonDifferentiable",
    Differentiability.UNDEFINED: "Unknown",
}


@dataclass(frozen=True)
class Location:
    """Where onnx says a schema is defined: a path relative to the checkout, and a line."""

    path: str
    line: int


@dataclass(frozen=True)
class Change:
    """One call given a new category, with every suggestion that asked for it."""

    call: Call
    category: str
    suggestions: tuple[Suggestion, ...]
    helper: str | None = None  # the helper's name when the call is shared

    @property
    def was(self) -> str:
        return self.call.category or "Unknown"


@dataclass(frozen=True)
class LeftOut:
    """A qualifying suggestion the patch does not carry, and why."""

    suggestion: Suggestion
    reason: str


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...]
    left_out: tuple[LeftOut, ...]
    below: tuple[Suggestion, ...]
    """Suggestions that name a new tag on evidence weaker than required, or conflict."""


def accepted(min_evidence: Strength) -> frozenset[Strength]:
    """The strengths that qualify at ``min_evidence`` (``strong`` or ``weak``)."""
    if min_evidence is Strength.STRONG:
        return frozenset({Strength.STRONG})
    return frozenset({Strength.STRONG, Strength.WEAK})


def _key(s: Suggestion) -> SchemaKey:
    return (s.domain, s.op, s.version)


def _qualifies(s: Suggestion, strengths: Collection[Strength]) -> bool:
    return s.suggested is not None and s.strength in strengths and s.suggested is not s.current


def _name(block: Block) -> str:
    return f"{block.name}-{block.version}"


class _Planner:
    def __init__(
        self,
        tree: SourceTree,
        suggestions: Sequence[Suggestion],
        locations: Mapping[SchemaKey, Location],
        strengths: Collection[Strength],
    ) -> None:
        self.tree = tree
        self.strengths = strengths
        self.by_schema: dict[SchemaKey, dict[str, Suggestion]] = {}
        for s in suggestions:
            self.by_schema.setdefault(_key(s), {})[s.parameter] = s
        self.blocks: dict[SchemaKey, Block] = {}
        for key, loc in locations.items():
            block = tree.find(*key, loc.path, loc.line)
            if block is not None:
                self.blocks[key] = block
        self.users = self._users()

    def _users(self) -> dict[Call, list[tuple[Block, Suggestion | None]]]:
        """For every helper call, each schema reaching it with its suggestion (``None``: none)."""
        users: dict[Call, list[tuple[Block, Suggestion | None]]] = {}
        for block in self.tree.definitions:
            key = (block.domain or "", block.name, block.version or 0)
            own = {c.label for c in block.calls}
            if key in self.by_schema:
                for label, s in self.by_schema[key].items():
                    if label not in own:
                        for call in self.tree.sites(block, label):
                            users.setdefault(call, []).append((block, s))
                continue
            for helper in self.tree.reached(block):
                for call in helper.calls:
                    if call.label not in own:
                        users.setdefault(call, []).append((block, None))
        return users

    def plan(self) -> Plan:
        wanted: dict[Call, list[Suggestion]] = {}
        left: list[LeftOut] = []
        below = []
        for key in sorted(self.by_schema):
            for s in self.by_schema[key].values():
                if not _qualifies(s, self.strengths):
                    if s.suggested is not s.current and s.strength is not Strength.NONE:
                        below.append(s)
                    continue
                reason = self._place(s, wanted)
                if reason:
                    left.append(LeftOut(s, reason))
        changes = []
        for call, asked in wanted.items():
            if any(c.call == call for c in changes):
                continue
            helper = self._helper_of(call)
            if helper is None:
                changes.append(Change(call, CATEGORY[asked[0].suggested], tuple(asked)))
                continue
            reason = self._shared_reason(call, helper)
            if reason:
                left += [LeftOut(s, reason) for s in asked]
            else:
                users = tuple(s for _, s in self.users[call] if s is not None)
                changes.append(Change(call, CATEGORY[asked[0].suggested], users, helper.name))
        changes.sort(key=lambda c: (c.call.path, c.call.open_at))
        return Plan(tuple(changes), tuple(left), tuple(below))

    def _place(self, s: Suggestion, wanted: dict[Call, list[Suggestion]]) -> str | None:
        """Record the calls ``s`` asks to change; the reason when it cannot be carried."""
        block = self.blocks.get(_key(s))
        if block is None:
            return "definition not found in the checkout"
        sites = self.tree.sites(block, s.parameter)
        if not sites:
            return f"no .{s.parameter.split()[0].title()}() call names it literally"
        for call in sites:
            if call.category is None:
                return f"category computed in the source ({call.where})"
            if call.category != CATEGORY[s.current]:
                return (
                    f"the source says {call.category} ({call.where}), onnx says {s.current.value}"
                )
        for call in sites:
            wanted.setdefault(call, []).append(s)
        return None

    def _helper_of(self, call: Call) -> Block | None:
        return next((h for h in self.tree.helpers if call in h.calls), None)

    def _shared_reason(self, call: Call, helper: Block) -> str | None:
        users = self.users.get(call, [])
        tags = {s.suggested for _, s in users if s is not None and _qualifies(s, self.strengths)}
        if len(tags) == 1 and all(
            s is not None and _qualifies(s, self.strengths) for _, s in users
        ):
            return None
        others = sorted(
            f"{_name(b)} ({s.describe() if s else 'no verdict'})"
            for b, s in users
            if s is None or not _qualifies(s, self.strengths) or len(tags) > 1
        )
        return (
            f"shared definition, not changed: {helper.name} ({call.where}) "
            f"also defines it for {', '.join(others)}"
        )


def plan(
    tree: SourceTree,
    suggestions: Sequence[Suggestion],
    locations: Mapping[SchemaKey, Location],
    min_evidence: Strength = Strength.STRONG,
) -> Plan:
    """Which calls of ``tree`` change for ``suggestions``, and what is left out and why."""
    return _Planner(tree, suggestions, locations, accepted(min_evidence)).plan()
