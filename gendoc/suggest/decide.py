"""Decide which ``Input``/``Output`` calls change: the rules between verdicts and sources.

Only undefined tags are filled: a tag onnx set is never changed, and where the
evidence disagrees with one it is listed as disputed (:mod:`gendoc.suggest.disputed`).
A suggestion qualifies when the parameter is undefined, it names a tag and its
strength is one the user accepts. A call in a schema's own
builder chain changes with that schema's suggestion. A call in a helper
changes only when every schema reaching it that has the parameter carries a
qualifying suggestion for the same tag: otherwise the patch would retag
operators no evidence speaks for, so the call is left alone and reported.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.evidence.verdict_text import describe_verdict
from gendoc.model.reference import Differentiability, ParameterRef
from gendoc.suggest.checkout import Block, Call, SourceTree
from gendoc.suggest.disputed import Dispute, disputes

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
    """A qualifying suggestion the patch does not carry, and why; ``shared``: its call is in
    a helper that other schemas reach too (the description lists those apart)."""

    suggestion: Suggestion
    reason: str
    shared: bool = False


@dataclass(frozen=True)
class Partial:
    """An operator version the patch touches that keeps undefined parameters, and why each."""

    key: SchemaKey
    undefined: tuple[tuple[ParameterRef, str], ...]
    """(parameter, why it stays undefined)."""


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...]
    left_out: tuple[LeftOut, ...]
    below: tuple[Suggestion, ...]
    """Suggestions for undefined tags on evidence weaker than required, or conflicting."""
    disputed: tuple[Dispute, ...] = ()
    partial: tuple[Partial, ...] = ()
    """Touched versions left partly tagged (the audit's GD004), with the reasons."""
    not_considered: tuple[Suggestion, ...] = ()
    """Suggestions for older versions, when only the newest version of each operator counts."""

    @property
    def tagged(self) -> dict[tuple[SchemaKey, ParameterRef], Differentiability]:
        """The new tag of every parameter the patch sets, by (schema, parameter)."""
        return {
            (_key(s), s.parameter): s.suggested
            for c in self.changes
            for s in c.suggestions
            if s.suggested is not None
        }


UNDEFINED = Differentiability.UNDEFINED


def accepted(min_evidence: Strength) -> frozenset[Strength]:
    """The strengths that qualify at ``min_evidence`` (``strong`` or ``weak``)."""
    if min_evidence is Strength.STRONG:
        return frozenset({Strength.STRONG})
    return frozenset({Strength.STRONG, Strength.WEAK})


def _key(s: Suggestion) -> SchemaKey:
    return (s.domain, s.op, s.version)


def _qualifies(s: Suggestion, strengths: Collection[Strength]) -> bool:
    return (
        s.current is Differentiability.UNDEFINED
        and s.suggested is not None
        and s.strength in strengths
    )


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
        self.by_schema: dict[SchemaKey, dict[ParameterRef, Suggestion]] = {}
        self.versions: dict[tuple[str, str], list[int]] = {}
        for s in suggestions:
            self.by_schema.setdefault(_key(s), {})[s.parameter] = s
        for domain, op, version in sorted(self.by_schema):
            self.versions.setdefault((domain, op), []).append(version)
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
            own = {c.parameter for c in block.calls}
            if key in self.by_schema:
                for parameter, s in self.by_schema[key].items():
                    if parameter not in own:
                        for call in self.tree.sites(block, parameter):
                            users.setdefault(call, []).append((block, s))
                continue
            for helper in self.tree.reached(block):
                for call in helper.calls:
                    if call.parameter not in own:
                        users.setdefault(call, []).append((block, None))
        return users

    def plan(self) -> Plan:
        wanted: dict[Call, list[Suggestion]] = {}
        left: list[LeftOut] = []
        below = []
        for key in sorted(self.by_schema):
            for s in self.by_schema[key].values():
                if not _qualifies(s, self.strengths):
                    undefined = s.current is Differentiability.UNDEFINED
                    if undefined and s.strength is not Strength.NONE:
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
                left += [LeftOut(s, reason, shared=True) for s in asked]
            else:
                users = tuple(s for _, s in self.users[call] if s is not None)
                changes.append(Change(call, CATEGORY[asked[0].suggested], users, helper.name))
        changes.sort(key=lambda c: (c.call.path, c.call.open_at))
        return Plan(tuple(changes), tuple(left), tuple(below))

    def partial(self, plan: Plan) -> list[Partial]:
        """The touched versions that keep undefined parameters, with the reason of each."""
        tagged = plan.tagged
        why = {(_key(x.suggestion), x.suggestion.parameter): x.reason for x in plan.left_out}
        why |= {(_key(s), s.parameter): describe_verdict(s) for s in plan.below}
        found = []
        for key in sorted({k for k, _ in tagged}):
            left = tuple(
                (parameter, why.get((key, parameter), describe_verdict(s)))
                for parameter, s in self.by_schema[key].items()
                if s.current is Differentiability.UNDEFINED and (key, parameter) not in tagged
            )
            if left:
                found.append(Partial(key, left))
        return found

    def _against_history(self, s: Suggestion) -> str | None:
        """Why ``s`` is a reviewer's call, not a fill-in: onnx tags the same parameter
        otherwise in another version of the operator (a tag the evidence disputes, or the
        verdict would not have suggested it: :mod:`gendoc.evidence.history`)."""
        for version in self.versions[(s.domain, s.op)]:
            other = self.by_schema[(s.domain, s.op, version)].get(s.parameter)
            if other is not None and other.current not in (UNDEFINED, s.suggested):
                return f"onnx tags it {other.current.value} in {s.op}-{version} (disputed)"
        return None

    def _place(self, s: Suggestion, wanted: dict[Call, list[Suggestion]]) -> str | None:
        """Record the calls ``s`` asks to change; the reason when it cannot be carried."""
        history = self._against_history(s)
        if history:
            return history
        block = self.blocks.get(_key(s))
        if block is None:
            return "definition not found in the checkout"
        sites = self.tree.sites(block, s.parameter)
        if not sites:
            return f"no .{s.parameter.part.value.title()}() call names it literally"
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
            f"{_name(b)} ({describe_verdict(s) if s else 'no verdict'})"
            for b, s in users
            if s is None or not _qualifies(s, self.strengths) or len(tags) > 1
        )
        return (
            f"shared definition, not changed: {helper.name} ({call.where}) "
            f"also defines it for {', '.join(others)}"
        )


def newest(suggestions: Sequence[Suggestion]) -> tuple[list[Suggestion], list[Suggestion]]:
    """The suggestions for the newest version of each operator, and the rest."""
    latest: dict[tuple[str, str], int] = {}
    for s in suggestions:
        latest[(s.domain, s.op)] = max(s.version, latest.get((s.domain, s.op), 0))
    kept = [s for s in suggestions if s.version == latest[(s.domain, s.op)]]
    return kept, [s for s in suggestions if s.version != latest[(s.domain, s.op)]]


def plan(
    tree: SourceTree,
    suggestions: Sequence[Suggestion],
    locations: Mapping[SchemaKey, Location],
    min_evidence: Strength = Strength.STRONG,
    *,
    newest_only: bool = False,
    whole_versions: bool = False,
) -> Plan:
    """Which calls of ``tree`` change for ``suggestions``, and what is left out and why.

    ``newest_only``: only the newest version of each operator is touched.
    ``whole_versions``: a version the evidence cannot tag completely is not
    touched at all (its suggestions are left out with the reason), so no
    version is left partly tagged; dropping one can block a definition shared
    with another version, so this repeats until nothing more is dropped.
    """
    considered, older = newest(suggestions) if newest_only else (list(suggestions), [])
    dropped: dict[SchemaKey, Partial] = {}
    while True:
        kept = [s for s in considered if _key(s) not in dropped]
        planner = _Planner(tree, kept, locations, accepted(min_evidence))
        decided = planner.plan()
        partial = planner.partial(decided)
        if not whole_versions or not partial:
            break
        dropped |= {p.key: p for p in partial}
    left, below = list(decided.left_out), list(decided.below)
    for s in considered:
        if _key(s) not in dropped or s.current is not Differentiability.UNDEFINED:
            continue
        if _qualifies(s, planner.strengths):
            undefined = dropped[_key(s)].undefined
            reasons = "; ".join(f"{parameter}: {why}" for parameter, why in undefined)
            left.append(LeftOut(s, f"version not tagged completely ({reasons})"))
        elif s.strength is not Strength.NONE:
            below.append(s)
    return Plan(
        decided.changes,
        tuple(left),
        tuple(sorted(below, key=_key)),
        tuple(disputes(considered)),
        tuple(partial),
        tuple(older),
    )
