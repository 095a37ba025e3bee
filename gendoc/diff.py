"""Diff: what changed between two operator references, for reviewers and for CI.

The comparison is semantic and works on the model only: two References
(read from snapshots or collected from the installed onnx) become a list
of :class:`Change` records, which the formatters turn into a pull-request
comment (Markdown), data for tools (JSON) or GitHub Actions annotations.
Differentiability tag changes are the reason this command exists, so they
are counted apart, listed first and can alone fail the run.

Per operator, every version present on both sides is compared with
itself, which catches a tag fixed in place in an old version. When NEW's
latest version does not exist in OLD, it is also compared with OLD's
latest version: that is what a user moving to the new release sees, and
those lines say which version they were compared with.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import partial

from gendoc.model import (
    Attribute,
    Operator,
    Option,
    Parameter,
    Reference,
    Schema,
    domain_label,
)
from gendoc.pairing import Pairing, pair_versions
from gendoc.snapshot import INSTALLED, load_reference

FORMAT_VERSION = 1
"""Version of the ``--format json`` document, raised when its fields change meaning."""


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
    constraint lists its types in ``added`` and ``removed``.
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

    @property
    def is_tag_change(self) -> bool:
        return self.kind is Kind.TAG_CHANGED

    @property
    def qualified_operator(self) -> str:
        return f"{self.domain}.{self.operator}" if self.domain else self.operator

    def message(self, code: Callable[[str], str] = str) -> str:
        """One line such as ``Reshape-5 input shape: undefined -> non-differentiable``.

        ``code`` marks up identifiers and values (Markdown code spans).
        """
        op = self.qualified_operator
        subject = code(op if self.version is None else f"{op}-{self.version}")
        element = f"{subject} {self.part} {code(self.name or '')}"
        text = _MESSAGES[self.kind](self, subject, element, code)
        if self.compared_with is not None:
            text += f" (compared with {code(f'{op}-{self.compared_with}')})"
        return text


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _versions(change: Change) -> str:
    word = "version" if len(change.versions) == 1 else "versions"
    return f"{word} {', '.join(str(v) for v in change.versions)}"


def _types(types: Iterable[str], code: Callable[[str], str]) -> str:
    return ", ".join(code(t) for t in types)


def _type_constraint_delta(change: Change, code: Callable[[str], str]) -> str:
    parts = []
    if change.added:
        parts.append(f"added {_types(change.added, code)}")
    if change.removed:
        parts.append(f"removed {_types(change.removed, code)}")
    return "; ".join(parts)


_Message = Callable[[Change, str, str, Callable[[str], str]], str]
_MESSAGES: dict[Kind, _Message] = {
    Kind.OPERATOR_ADDED: lambda c, s, e, code: f"{s} added ({_versions(c)})",
    Kind.OPERATOR_REMOVED: lambda c, s, e, code: f"{s} removed ({_versions(c)})",
    Kind.VERSION_ADDED: lambda c, s, e, code: f"{s} added",
    Kind.VERSION_REMOVED: lambda c, s, e, code: f"{s} removed",
    Kind.DEPRECATED: lambda c, s, e, code: f"{s} deprecated",
    Kind.UNDEPRECATED: lambda c, s, e, code: f"{s} no longer deprecated",
    Kind.TAG_CHANGED: lambda c, s, e, code: f"{e}: {c.old} -> {c.new}",
    Kind.PARAMETER_ADDED: lambda c, s, e, code: f"{e} added: {c.new}",
    Kind.PARAMETER_REMOVED: lambda c, s, e, code: f"{e} removed",
    Kind.PARAMETER_RENAMED: lambda c, s, e, code: (
        f"{s} {c.part} {code(c.old or '')} renamed to {code(c.new or '')}"
    ),
    Kind.PARAMETERS_REORDERED: lambda c, s, e, code: f"{s} {c.part}s reordered: {c.old} -> {c.new}",
    Kind.OPTION_CHANGED: lambda c, s, e, code: f"{e} option: {c.old} -> {c.new}",
    Kind.PARAMETER_TYPE_CHANGED: lambda c, s, e, code: (
        f"{e} type: {code(c.old or '')} -> {code(c.new or '')}"
    ),
    Kind.ATTRIBUTE_ADDED: lambda c, s, e, code: f"{e} added: {code(c.new or '')}",
    Kind.ATTRIBUTE_REMOVED: lambda c, s, e, code: f"{e} removed",
    Kind.ATTRIBUTE_CHANGED: lambda c, s, e, code: (
        f"{e}: {code(c.old or '')} -> {code(c.new or '')}"
    ),
    Kind.TYPE_CONSTRAINT_ADDED: lambda c, s, e, code: f"{e} added: {_types(c.added, code)}",
    Kind.TYPE_CONSTRAINT_REMOVED: lambda c, s, e, code: f"{e} removed",
    Kind.TYPE_CONSTRAINT_CHANGED: lambda c, s, e, code: f"{e}: {_type_constraint_delta(c, code)}",
}


# --- comparison ----------------------------------------------------------------------------


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


# --- output --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a comparison, as the reports name it."""

    source: str
    onnx_version: str

    def __str__(self) -> str:
        return f"{self.source} (onnx {self.onnx_version})"


def _summary(changes: list[Change]) -> str:
    operators = {(c.domain, c.operator) for c in changes}
    tags = sum(c.is_tag_change for c in changes)
    counted = f"{_plural(len(changes), 'change')} in {_plural(len(operators), 'operator')}"
    if not tags:
        return f"{counted}, no differentiability tag change"
    return f"{counted}, including {_plural(tags, 'differentiability tag change')}"


def no_differences(old: Side, new: Side) -> str:
    return f"No differences between {old} and {new}."


def code_span(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it contains."""
    text = " ".join(text.splitlines())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _markdown_section(title: str, changes: list[Change]) -> Iterator[str]:
    yield f"### {title}"
    domain = None
    for change in changes:
        if change.domain != domain:
            domain = change.domain
            yield ""
            yield f"#### {domain_label(domain)}"
            yield ""
        yield f"- {change.message(code_span)}"
    yield ""


def format_markdown(changes: list[Change], old: Side, new: Side) -> str:
    """A pull-request comment: a summary line, tag changes, then everything else."""
    if not changes:
        return no_differences(old, new) + "\n"
    tags = [c for c in changes if c.is_tag_change]
    others = [c for c in changes if not c.is_tag_change]
    lines = [
        "## ONNX operator changes",
        "",
        f"From {code_span(old.source)} (onnx {old.onnx_version}) to "
        f"{code_span(new.source)} (onnx {new.onnx_version}): {_summary(changes)}.",
        "",
    ]
    if tags:
        lines += _markdown_section("Differentiability tag changes", tags)
    if others:
        lines += _markdown_section("Other changes", others)
    return "\n".join(lines)


def change_to_dict(change: Change) -> dict[str, object]:
    return {
        "kind": change.kind.value,
        "domain": change.domain,
        "operator": change.operator,
        "version": change.version,
        "compared_with": change.compared_with,
        "part": change.part,
        "name": change.name,
        "old": change.old,
        "new": change.new,
        "added": list(change.added),
        "removed": list(change.removed),
        "versions": list(change.versions),
        "message": change.message(),
    }


def format_json(changes: list[Change], old: Side, new: Side) -> str:
    """Every change with its fields and its one-line message, for tools."""
    data = {
        "format_version": FORMAT_VERSION,
        "old": {"source": old.source, "onnx_version": old.onnx_version},
        "new": {"source": new.source, "onnx_version": new.onnx_version},
        "summary": {
            "changes": len(changes),
            "tag_changes": sum(c.is_tag_change for c in changes),
        },
        "changes": [change_to_dict(c) for c in changes],
    }
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation_level(change: Change, fail_on: str) -> str:
    """Changes that fail the run are errors; other tag changes warnings; the rest notices."""
    if fail_on == "any" or (fail_on == "tag-change" and change.is_tag_change):
        return "error"
    return "warning" if change.is_tag_change else "notice"


def format_github(changes: list[Change], old: Side, new: Side, fail_on: str) -> str:
    """GitHub Actions workflow commands: one annotation per change, then a summary."""
    if not changes:
        return no_differences(old, new) + "\n"
    lines = []
    for change in changes:
        title = "Differentiability tag change" if change.is_tag_change else "Operator change"
        lines.append(
            f"::{_annotation_level(change, fail_on)} title={_escape_property(title)}::"
            f"{_escape_data(change.message())}"
        )
    lines.append(f"gendoc diff {old} -> {new}: {_summary(changes)}")
    return "\n".join(lines) + "\n"


def exit_status(changes: list[Change], fail_on: str) -> int:
    """1 when ``--fail-on`` says these changes fail the run, else 0."""
    if fail_on == "any":
        return int(bool(changes))
    if fail_on == "tag-change":
        return int(any(c.is_tag_change for c in changes))
    return 0


def run(args: argparse.Namespace) -> int:
    """``gendoc diff OLD NEW``: load both sides, compare, print, pick the exit status."""
    if args.schemas and INSTALLED not in (args.old, args.new):
        warnings.warn(
            f"--schemas only applies to '{INSTALLED}'; both sides are snapshot files",
            stacklevel=1,
        )
    old_reference = load_reference(args.old, args.schemas)
    new_reference = load_reference(args.new, args.schemas)
    old = Side(args.old, old_reference.onnx_version)
    new = Side(args.new, new_reference.onnx_version)
    changes = compare(old_reference, new_reference)
    if args.format == "json":
        text = format_json(changes, old, new)
    elif args.format == "github":
        text = format_github(changes, old, new, args.fail_on)
    else:
        text = format_markdown(changes, old, new)
    sys.stdout.write(text)
    return exit_status(changes, args.fail_on)
