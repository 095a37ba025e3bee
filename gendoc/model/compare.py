"""The comparison of two operator references: what changed, as plain records.

Two References become a list of :class:`Change` records, on the model only.
Differentiability tag changes are the reason ``gendoc diff`` exists, so they
are counted apart, listed first and can alone fail the run. A version whose
prose changed gets one record saying how many paragraphs changed, with both
texts, from which the reports show a word diff (:mod:`gendoc.model.text_changes`).

Per operator, every version present on both sides is compared with
itself, which catches a tag fixed in place in an old version. When NEW's
latest version does not exist in OLD, it is also compared with OLD's
latest version: that is what a user moving to the new release sees, and
those records say which version they were compared with.

The reports' wording is the presentation stage's
(:mod:`gendoc.present.change_messages`, :mod:`gendoc.present.diff_report`); which
changes GitHub shows as annotations is the presentation's (:mod:`gendoc.present.annotations`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import partial

from gendoc.model.pairing import Pairing, pair_versions
from gendoc.model.reference import Attribute, Operator, Option, Parameter, Reference, Schema
from gendoc.model.text_changes import (
    PARAGRAPH_BREAK,
    bodies,
    changed_paragraphs,
    headed,
    prose,
    word_diff,
)

WORD_DIFF_CHARS = 1500
"""Characters of one version's word diff in the Markdown report."""


class Kind(Enum):
    """What one change record is about; the values are the names used in JSON."""

    OPERATOR_ADDED = "operator-added"
    OPERATOR_REMOVED = "operator-removed"
    VERSION_ADDED = "version-added"
    VERSION_REMOVED = "version-removed"
    DEPRECATED = "deprecated"
    UNDEPRECATED = "undeprecated"
    TAG_CHANGED = "tag-changed"
    PARAMETER_ADDED = "parameter-added"
    PARAMETER_REMOVED = "parameter-removed"
    PARAMETER_RENAMED = "parameter-renamed"
    PARAMETERS_REORDERED = "parameters-reordered"
    OPTION_CHANGED = "option-changed"
    PARAMETER_TYPE_CHANGED = "parameter-type-changed"
    ATTRIBUTE_ADDED = "attribute-added"
    ATTRIBUTE_REMOVED = "attribute-removed"
    ATTRIBUTE_CHANGED = "attribute-changed"
    TYPE_CONSTRAINT_ADDED = "type-constraint-added"
    TYPE_CONSTRAINT_REMOVED = "type-constraint-removed"
    TYPE_CONSTRAINT_CHANGED = "type-constraint-changed"
    TEXT_CHANGED = "text-changed"


@dataclass(frozen=True)
class Change:
    """One difference between OLD and NEW.

    ``version`` is the operator version the change is reported on (NEW's,
    or OLD's for a removal; ``None`` when a whole operator comes or goes,
    with its versions in ``versions``). ``compared_with`` is OLD's version
    when it is not the same one. ``part`` is ``input``, ``output``,
    ``attribute`` or ``type constraint`` and ``name`` the element's name
    (NEW's name after a rename). ``old``/``new`` are display values: tags,
    options, types, attribute summaries, old and new names. A changed type
    constraint lists its types in ``added`` and ``removed``. A text change
    holds both versions' prose in ``old`` and ``new``, paragraphs separated by
    a blank line, and how many of them changed in ``paragraphs``.
    """

    kind: Kind
    domain: str
    operator: str
    version: int | None = None
    compared_with: int | None = None
    part: str | None = None
    name: str | None = None
    old: str | None = None
    new: str | None = None
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    versions: tuple[int, ...] = ()
    paragraphs: int = 0

    @property
    def is_tag_change(self) -> bool:
        return self.kind is Kind.TAG_CHANGED

    @property
    def is_text_change(self) -> bool:
        return self.kind is Kind.TEXT_CHANGED

    @property
    def qualified_operator(self) -> str:
        return f"{self.domain}.{self.operator}" if self.domain else self.operator

    def word_diff(self, max_chars: int = WORD_DIFF_CHARS) -> str:
        """A text change's changed paragraphs, words marked (``[-old-]{+new+}``)."""
        old, new = (text.split(PARAGRAPH_BREAK) if text else [] for text in (self.old, self.new))
        return word_diff(old, new, max_chars)


def _describe_parameter(param: Parameter) -> str:
    """``optional T, non-differentiable``: what a reviewer needs about a new parameter."""
    kind = (
        param.type_str
        if param.option is Option.SINGLE
        else f"{param.option.value} {param.type_str}"
    )
    return f"{kind}, {param.differentiability.value}"


def _describe_attribute(attr: Attribute) -> str:
    if attr.required:
        return f"{attr.type}, required"
    if attr.default is None:
        return f"{attr.type}, optional"
    return f"{attr.type}, default {attr.default}"


def _compare_parameters(pairing: Pairing, emit: Callable[..., Change]) -> Iterator[Change]:
    part = pairing.part
    for pair in pairing.pairs:
        if pair.renamed:
            old_name, new_name = pair.old.name, pair.new.name
            yield emit(Kind.PARAMETER_RENAMED, part=part, name=new_name, old=old_name, new=new_name)
    for pair in pairing.pairs:
        o, n = pair.old, pair.new
        if pair.tag_changed:
            yield emit(
                Kind.TAG_CHANGED,
                part=part,
                name=n.name,
                old=o.differentiability.value,
                new=n.differentiability.value,
            )
        if o.option != n.option:
            yield emit(
                Kind.OPTION_CHANGED, part=part, name=n.name, old=o.option.value, new=n.option.value
            )
        if o.type_str != n.type_str:
            yield emit(
                Kind.PARAMETER_TYPE_CHANGED, part=part, name=n.name, old=o.type_str, new=n.type_str
            )
    if pairing.reordered is not None:
        old_order, new_order = pairing.reordered
        yield emit(
            Kind.PARAMETERS_REORDERED, part=part, old=", ".join(old_order), new=", ".join(new_order)
        )
    for p in pairing.removed:
        yield emit(Kind.PARAMETER_REMOVED, part=part, name=p.name)
    for p in pairing.added:
        yield emit(Kind.PARAMETER_ADDED, part=part, name=p.name, new=_describe_parameter(p))


def _compare_attributes(
    old: tuple[Attribute, ...], new: tuple[Attribute, ...], emit: Callable[..., Change]
) -> Iterator[Change]:
    old_by_name = {a.name: a for a in old}
    new_by_name = {a.name: a for a in new}
    for name in sorted(old_by_name.keys() | new_by_name.keys()):
        o, n = old_by_name.get(name), new_by_name.get(name)
        if o is None and n is not None:
            yield emit(
                Kind.ATTRIBUTE_ADDED, part="attribute", name=name, new=_describe_attribute(n)
            )
        elif n is None:
            yield emit(Kind.ATTRIBUTE_REMOVED, part="attribute", name=name)
        elif _describe_attribute(o) != _describe_attribute(n):
            yield emit(
                Kind.ATTRIBUTE_CHANGED,
                part="attribute",
                name=name,
                old=_describe_attribute(o),
                new=_describe_attribute(n),
            )


def _compare_type_constraints(
    old: Schema, new: Schema, emit: Callable[..., Change]
) -> Iterator[Change]:
    old_by_name = {tc.name: tc.allowed_types for tc in old.type_constraints}
    new_by_name = {tc.name: tc.allowed_types for tc in new.type_constraints}
    part = "type constraint"
    for name, types in old_by_name.items():
        if name not in new_by_name:
            yield emit(Kind.TYPE_CONSTRAINT_REMOVED, part=part, name=name, removed=types)
            continue
        added = tuple(t for t in new_by_name[name] if t not in types)
        removed = tuple(t for t in types if t not in new_by_name[name])
        if added or removed:
            yield emit(
                Kind.TYPE_CONSTRAINT_CHANGED, part=part, name=name, added=added, removed=removed
            )
    for name, types in new_by_name.items():
        if name not in old_by_name:
            yield emit(Kind.TYPE_CONSTRAINT_ADDED, part=part, name=name, added=types)


def compare_schemas(old: Schema, new: Schema) -> list[Change]:
    """Every difference between two versions of one operator, reported on ``new``."""
    emit = partial(
        Change,
        domain=new.domain,
        operator=new.name,
        version=new.since_version,
        compared_with=None if old.since_version == new.since_version else old.since_version,
    )
    changes = []
    if old.deprecated != new.deprecated:
        changes.append(emit(Kind.DEPRECATED if new.deprecated else Kind.UNDEPRECATED))
    for pairing in pair_versions(old, new):
        changes += _compare_parameters(pairing, emit)
    changes += _compare_attributes(old.attributes, new.attributes, emit)
    changes += _compare_type_constraints(old, new, emit)
    old_prose, new_prose = prose(old), prose(new)
    if bodies(old_prose) != bodies(new_prose):
        changes.append(
            emit(
                Kind.TEXT_CHANGED,
                old=PARAGRAPH_BREAK.join(headed(old_prose)),
                new=PARAGRAPH_BREAK.join(headed(new_prose)),
                paragraphs=changed_paragraphs(headed(old_prose), headed(new_prose)),
            )
        )
    return changes


def _compare_operator(old: Operator, new: Operator) -> Iterator[Change]:
    old_versions = {s.since_version: s for s in old.versions}
    new_versions = {s.since_version: s for s in new.versions}
    for version in sorted(old_versions.keys() | new_versions.keys()):
        if version not in old_versions:
            yield Change(Kind.VERSION_ADDED, new.domain, new.name, version)
        elif version not in new_versions:
            yield Change(Kind.VERSION_REMOVED, old.domain, old.name, version)
        else:
            yield from compare_schemas(old_versions[version], new_versions[version])
    if new.latest.since_version not in old_versions:
        yield from compare_schemas(old.latest, new.latest)


def compare(old: Reference, new: Reference) -> list[Change]:
    """All changes from ``old`` to ``new``, ordered by domain, operator and version."""
    old_ops = {(op.domain, op.name): op for op in old.operators()}
    new_ops = {(op.domain, op.name): op for op in new.operators()}
    changes: list[Change] = []
    for key in sorted(old_ops.keys() | new_ops.keys()):
        o, n = old_ops.get(key), new_ops.get(key)
        if o is None and n is not None:
            versions = tuple(s.since_version for s in n.versions)
            changes.append(Change(Kind.OPERATOR_ADDED, *key, versions=versions))
        elif n is None and o is not None:
            versions = tuple(s.since_version for s in o.versions)
            changes.append(Change(Kind.OPERATOR_REMOVED, *key, versions=versions))
        elif o is not None and n is not None:
            changes += _compare_operator(o, n)
    return changes


class FailOn(Enum):
    """Which changes make ``gendoc diff`` exit 1."""

    TAG_CHANGE = "tag-change"
    ANY = "any"
    NEVER = "never"


@dataclass(frozen=True)
class Side:
    """One side of a comparison, as the reports name it."""

    source: str
    onnx_version: str

    def __str__(self) -> str:
        return f"{self.source} (onnx {self.onnx_version})"


@dataclass(frozen=True)
class DiffReport:
    """The changes from OLD to NEW and what each output format needs to show them.

    ``known_types`` are the element types of both sides, which long type lists
    are compacted against.
    """

    old: Side
    new: Side
    changes: tuple[Change, ...]
    known_types: frozenset[str] = frozenset()

    @property
    def ordered(self) -> tuple[Change, ...]:
        """Tag changes first, then the others; each in domain, operator and version order."""
        return self.tag_changes + self.other_changes

    @property
    def tag_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.is_tag_change)

    @property
    def other_changes(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.is_tag_change)

    @property
    def operator_count(self) -> int:
        return len({(c.domain, c.operator) for c in self.changes})

    def fails(self, change: Change, fail_on: FailOn) -> bool:
        """Whether ``fail_on`` says this change fails the run."""
        return fail_on is FailOn.ANY or (fail_on is FailOn.TAG_CHANGE and change.is_tag_change)

    def exit_status(self, fail_on: FailOn) -> int:
        """1 when ``fail_on`` says these changes fail the run, else 0."""
        return int(any(self.fails(c, fail_on) for c in self.changes))
