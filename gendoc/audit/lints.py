"""Static lints: checks of the tags that need nothing but the model.

Each check looks at one operator (all its versions, oldest first) and yields
findings; ``CHECKS`` maps a rule id of :data:`gendoc.audit.findings.RULES`
to its check. They are plain functions over frozen dataclasses, so the whole
of onnx is linted in milliseconds and tests can build schemas by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gendoc.audit.findings import Finding, make_finding
from gendoc.audit.messages import N_, Arg
from gendoc.catalogs.i18n import Term
from gendoc.model.element_types import allowed_types, holds_float
from gendoc.model.pairing import pair_versions
from gendoc.model.reference import (
    Differentiability,
    Operator,
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
    labelled,
)

DIFF = Differentiability.DIFFERENTIABLE
NON_DIFF = Differentiability.NON_DIFFERENTIABLE
UNDEFINED = Differentiability.UNDEFINED


def _float_free(
    op: Operator, tag: Differentiability
) -> Iterator[tuple[Schema, ParameterRef, tuple[str, ...]]]:
    """Every parameter tagged ``tag`` whose types hold no floating-point value."""
    for schema in op.versions:
        for where, param in labelled(schema):
            if param.differentiability is not tag:
                continue
            types = allowed_types(schema, param)
            if types is not None and not holds_float(types):
                yield schema, where, types


def check_float_free_differentiable(op: Operator) -> Iterator[Finding]:
    """GD001: a gradient cannot flow through integers, booleans or strings."""
    message = N_("tagged differentiable but its types ({types}) hold no floating-point value")
    for schema, where, types in _float_free(op, DIFF):
        yield _finding("GD001", schema, where, message, types=", ".join(types))


def check_untagged_float_free(op: Operator) -> Iterator[Finding]:
    """GD007: the one tag that follows from the types alone, offered as a suggestion."""
    message = N_(
        "undefined, but its types ({types}) hold no floating-point value: "
        "non-differentiable is the likely tag"
    )
    for schema, where, types in _float_free(op, UNDEFINED):
        yield _finding("GD007", schema, where, message, types=", ".join(types))


def _finding(
    rule: str, schema: Schema, parameter: ParameterRef | None, template: str, **args: Arg
) -> Finding:
    return make_finding(
        rule, schema.domain, schema.name, schema.since_version, parameter, template, **args
    )


def _names(params: Iterable[Parameter]) -> str:
    return ", ".join(p.name for p in params)


_ONE_SIDED = {
    # rule: (the side tagged differentiable, the other side, messages: every parameter of the
    # other side has the one tag {tag}; some are non-differentiable and some undefined; the
    # version has no other side)
    "GD002": (
        "inputs",
        "outputs",
        N_("input {inputs} tagged differentiable but every output is {tag} ({outputs})"),
        N_(
            "input {inputs} tagged differentiable but no output is: "
            "{non_differentiable} non-differentiable, {undefined} undefined"
        ),
        N_("input {inputs} tagged differentiable but the version has no output"),
    ),
    "GD003": (
        "outputs",
        "inputs",
        N_("output {outputs} tagged differentiable but every input is {tag} ({inputs})"),
        N_(
            "output {outputs} tagged differentiable but no input is: "
            "{non_differentiable} non-differentiable, {undefined} undefined"
        ),
        N_("output {outputs} tagged differentiable but the version has no input"),
    ),
}


def _one_sided(rule: str, op: Operator) -> Iterator[Finding]:
    """A gradient has to flow in and out: a differentiable side needs one on the other side.

    The other side's tags are named as tags (terms a translated message translates), never
    pasted into a name list, so a Chinese finding reads 不可微 too.
    """
    side, other_side, uniform, mixed, alone = _ONE_SIDED[rule]
    for schema in op.versions:
        tagged = [p for p in getattr(schema, side) if p.differentiability is DIFF]
        others = getattr(schema, other_side)
        if not tagged or any(p.differentiability is DIFF for p in others):
            continue
        names = _names(tagged)
        tags = {p.differentiability for p in others}
        if not others:
            yield _finding(rule, schema, None, alone, **{side: names})
        elif len(tags) == 1:
            (tag,) = tags
            args = {side: names, other_side: _names(others), "tag": Term(tag.value)}
            yield _finding(rule, schema, None, uniform, **args)
        else:
            non_differentiable = [p for p in others if p.differentiability is not UNDEFINED]
            undefined = [p for p in others if p.differentiability is UNDEFINED]
            args = {
                side: names,
                "non_differentiable": _names(non_differentiable),
                "undefined": _names(undefined),
            }
            yield _finding(rule, schema, None, mixed, **args)


def check_input_without_output(op: Operator) -> Iterator[Finding]:
    """GD002: a gradient that flows into the operator must come from some output."""
    return _one_sided("GD002", op)


def check_output_without_input(op: Operator) -> Iterator[Finding]:
    """GD003: a differentiable output must pass its gradient on to some input."""
    return _one_sided("GD003", op)


def check_partially_tagged(op: Operator) -> Iterator[Finding]:
    """GD004: a half-tagged version usually means a forgotten parameter."""
    for schema in op.versions:
        params = schema.parameters
        undefined = [p for p in params if p.differentiability is UNDEFINED]
        if undefined and len(undefined) < len(params):
            tagged = [p for p in params if p.differentiability is not UNDEFINED]
            yield _finding(
                "GD004",
                schema,
                None,
                N_("partially tagged: {undefined} undefined while {tagged} tagged"),
                undefined=_names(undefined),
                tagged=_names(tagged),
            )


def _tag_steps(
    op: Operator,
) -> Iterator[tuple[Schema, Schema, ParameterRef, Differentiability, Differentiability]]:
    """Each parameter's tag in one version and in the next, where it is the same parameter
    (see :mod:`gendoc.model.pairing`): ``(before, after, where, old tag, new tag)``."""
    for before, after in zip(op.versions, op.versions[1:], strict=False):
        for pairing in pair_versions(before, after):
            for pair in pairing.pairs:
                where = ParameterRef(Part(pair.part), pair.new.name)
                yield before, after, where, pair.old.differentiability, pair.new.differentiability


def check_tag_flip(op: Operator) -> Iterator[Finding]:
    """GD005: a flip may be a fix or a regression; a reviewer should decide.

    A tag appearing where the previous version had none is not reported: that
    is how onnx introduced tags (opset 13), a new claim rather than a change.
    """
    for before, after, where, old, new in _tag_steps(op):
        if UNDEFINED not in (old, new) and old is not new:
            template = N_("tag changed from {old} in version {before} to {new}")
            yield _finding(
                "GD005",
                after,
                where,
                template,
                old=Term(old.value),
                before=before.since_version,
                new=Term(new.value),
            )


def check_tag_dropped(op: Operator) -> Iterator[Finding]:
    """GD006: a new version that loses a tag is most likely a copy-paste slip."""
    for before, after, where, old, new in _tag_steps(op):
        if old is not UNDEFINED and new is UNDEFINED:
            template = N_("tag dropped: {old} in version {before}, undefined now")
            yield _finding(
                "GD006", after, where, template, old=Term(old.value), before=before.since_version
            )


def check_float_all_undefined(op: Operator) -> Iterator[Finding]:
    """GD008: the parameters a gradient could flow through carry no claim at all."""
    for schema in op.versions:
        floats = [
            p
            for _, p in labelled(schema)
            if (types := allowed_types(schema, p)) is None or holds_float(types)
        ]
        if floats and all(p.differentiability is UNDEFINED for p in floats):
            yield _finding(
                "GD008",
                schema,
                None,
                N_("every floating-point parameter is undefined: {params}"),
                params=_names(floats),
            )


PIECEWISE_CONSTANT = frozenset({"Round", "Sign", "Floor", "Ceil", "Hardmax"})
"""Default-domain operators whose outputs are constant between jumps: zero gradient a.e."""


def check_piecewise_constant_output(op: Operator) -> Iterator[Finding]:
    """GD010: a gradient that is zero almost everywhere is no gradient to train with."""
    if op.domain or op.name not in PIECEWISE_CONSTANT:
        return
    for schema in op.versions:
        for param in schema.outputs:
            if param.differentiability is DIFF:
                yield _finding(
                    "GD010",
                    schema,
                    ParameterRef(Part.OUTPUT, param.name),
                    N_(
                        "tagged differentiable, but {operator} is piecewise constant: its gradient "
                        "is zero wherever it exists"
                    ),
                    operator=op.name,
                )


CHECKS: dict[str, Callable[[Operator], Iterable[Finding]]] = {
    "GD001": check_float_free_differentiable,
    "GD002": check_input_without_output,
    "GD003": check_output_without_input,
    "GD004": check_partially_tagged,
    "GD005": check_tag_flip,
    "GD006": check_tag_dropped,
    "GD007": check_untagged_float_free,
    "GD008": check_float_all_undefined,
    "GD010": check_piecewise_constant_output,
}

RECURRENT = ("RNN", "GRU", "LSTM")
"""The recurrent family: a parameter name means the same thing in each of them."""

_ROLES = {"initial_c": "initial_h", "Y_c": "Y_h"}
"""Parameters of one role under two names: LSTM's cell state goes with the hidden state."""


def _in_force(ops: Iterable[Operator], opset: int) -> list[Schema]:
    """Each operator's version in force at ``opset`` (those that exist by then)."""
    found = []
    for op in ops:
        versions = [s for s in op.versions if s.since_version <= opset]
        if versions:
            found.append(versions[-1])
    return found


def check_family_consistency(reference: Reference) -> Iterator[Finding]:
    """GD009: the same role in RNN, GRU and LSTM is the same math, so it gets the same tag.

    Compared at every opset where one of them changed, between the versions
    in force then; undefined parameters are left to GD004 and GD008.
    """
    ops = [op for op in reference.operators() if not op.domain and op.name in RECURRENT]
    seen: set[tuple[str, int, ParameterRef]] = set()
    for opset in sorted({s.since_version for op in ops for s in op.versions}):
        roles: dict[tuple[Part, str], list[tuple[Schema, ParameterRef, Parameter]]] = {}
        for schema in _in_force(ops, opset):
            for where, param in labelled(schema):
                if param.differentiability is not UNDEFINED:
                    key = (where.part, _ROLES.get(where.name, where.name))
                    roles.setdefault(key, []).append((schema, where, param))
        for members in roles.values():
            if len({p.differentiability for _, _, p in members}) < 2:
                continue
            for schema, where, param in members:
                if (schema.name, schema.since_version, where) in seen:
                    continue
                seen.add((schema.name, schema.since_version, where))
                tag = param.differentiability
                # undefined members are left out, so the others all carry the one other tag
                others = [(s, w, p) for s, w, p in members if p.differentiability is not tag]
                yield _finding(
                    "GD009",
                    schema,
                    where,
                    N_("tagged {tag}, but the same role is tagged {other} in {others}"),
                    tag=Term(tag.value),
                    other=Term(others[0][2].differentiability.value),
                    others=", ".join(f"{s.name}-{s.since_version} {w.name}" for s, w, _ in others),
                )


REFERENCE_CHECKS: dict[str, Callable[[Reference], Iterable[Finding]]] = {
    "GD009": check_family_consistency,
}
"""Checks that compare operators with each other, so they need the whole model."""


def lint_operator(op: Operator) -> list[Finding]:
    return [finding for check in CHECKS.values() for finding in check(op)]


def lint_reference(reference: Reference) -> list[Finding]:
    """Every static finding of every operator in ``reference``, sorted."""
    findings = [f for op in reference.operators() for f in lint_operator(op)]
    findings += [f for check in REFERENCE_CHECKS.values() for f in check(reference)]
    return sorted(findings, key=Finding.sort_key)
