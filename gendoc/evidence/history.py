"""One verdict per operator history and family, and the decisions the schema already makes.

:func:`gendoc.evidence.verdict.combine` weighs one operator version alone.
:func:`settle` then looks at every version in scope, in this order:

1. *The schema decides* an undefined parameter, with its basis named
   (:class:`SchemaBasis`): types that hold no floating-point value; an
   output of an operator none of whose inputs can hold one; an input of an
   operator none of whose outputs can hold one; a parameter of an operator
   whose outputs are random draws. All say non-differentiable.
2. *A value a control-flow operator passes through* (Loop, If, Scan) follows
   onnx's tag of the same parameter in the operator's other versions.
3. *Shared evidence*: an undefined parameter with no strong verdict takes
   the verdict (as strong as it is there) of the same parameter in a version
   of the operator with the same interface and text, in any version of an
   operator of :data:`ONE_MATHEMATICS`, or in an operator of the same
   mathematics (:data:`FAMILIES`), shown as "as GRU-22", when those peers
   agree.
4. *One history*: a suggestion never contradicts onnx's tag of the same
   parameter (same part and name) in another version of the operator,
   unless the mathematics disputes that tag; otherwise no tag is suggested,
   and the finding says why. A parameter with no verdict at all follows
   onnx's undisputed tag of it in the nearest other version, weakly.

Each step names the rule that decided (:attr:`Suggestion.rule`: ``schema``,
``pass-through``, ``shared``, ``shared-weak``, ``as-tagged``, ``history``);
what each reports is in :data:`gendoc.evidence.verdict_text.REPORTS`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gendoc.evidence.interface import Basis, Verdict
from gendoc.evidence.verdict import (
    DIFF,
    NON_DIFF,
    STRONG_WEIGHT,
    UNDEFINED,
    Strength,
    Suggestion,
    Vote,
    weight_of,
)
from gendoc.model.element_types import allowed_types, holds_float
from gendoc.model.reference import Differentiability, Parameter, ParameterRef, Part, Schema

SCHEMA = "onnx schema"
"""The source name of a decision the schema makes (its types, onnx's other tags)."""

CONTROL_FLOW = frozenset({"Loop", "If", "Scan"})

RANDOM_OPERATORS = frozenset(
    {
        "Bernoulli",
        "Multinomial",
        "RandomNormal",
        "RandomNormalLike",
        "RandomUniform",
        "RandomUniformLike",
    }
)
"""Operators whose outputs are random draws (Dropout joins them in training mode only): a
draw has no derivative, and the Like forms read only their input's shape and type."""

FAMILIES: tuple[frozenset[tuple[str, Part, str]], ...] = (
    frozenset((op, Part.INPUT, name) for op in ("RNN", "GRU", "LSTM") for name in ("initial_h",)),
    frozenset({("Upsample", Part.INPUT, "scales"), ("Resize", Part.INPUT, "scales")}),
)
"""Parameters of different operators with the same mathematics: a recurrent layer's initial
hidden state, the scales of an upsampling. Versions of one operator need no entry."""

ONE_MATHEMATICS = frozenset({"RoiAlign", "QuantizeLinear", *CONTROL_FLOW})
"""Operators whose versions share each parameter's mathematics even where its text changed:
RoiAlign-16 added a coordinate mode, QuantizeLinear new types and blocks (still a
rounding), and a value a control-flow operator passes through is passed through in every
version."""


class SchemaBasis(enum.StrEnum):
    """Why the schema alone decides a parameter is non-differentiable."""

    NO_FLOAT_TYPE = "no-float-type"
    NO_DIFFERENTIABLE_INPUT = "no-differentiable-input"
    NO_FLOAT_OUTPUT = "no-float-output"
    RANDOM_DRAW = "random-draw"


def _floating(schema: Schema, param: Parameter) -> bool:
    """Whether the parameter may hold a floating-point value (an unknown type may)."""
    types = allowed_types(schema, param)
    return types is None or holds_float(types)


def schema_basis(schema: Schema, ref: ParameterRef, param: Parameter) -> SchemaBasis | None:
    """Why the schema alone makes ``param`` non-differentiable, or ``None``."""
    if not _floating(schema, param):
        return SchemaBasis.NO_FLOAT_TYPE
    if ref.part is Part.OUTPUT and not any(_floating(schema, p) for p in schema.inputs):
        return SchemaBasis.NO_DIFFERENTIABLE_INPUT
    if ref.part is Part.INPUT and not any(_floating(schema, p) for p in schema.outputs):
        return SchemaBasis.NO_FLOAT_OUTPUT
    if not schema.domain and schema.name in RANDOM_OPERATORS:
        return SchemaBasis.RANDOM_DRAW
    return None


Key = tuple[str, str, int, ParameterRef]


def _params(schema: Schema) -> dict[ParameterRef, Parameter]:
    return {
        **{ParameterRef(Part.INPUT, p.name): p for p in schema.inputs},
        **{ParameterRef(Part.OUTPUT, p.name): p for p in schema.outputs},
    }


def _decided(schema: Schema, s: Suggestion, basis: SchemaBasis) -> Suggestion:
    vote = Vote(SCHEMA, Verdict.REFUSED, basis.value, Basis.SCHEMA)
    return replace(
        s, suggested=NON_DIFF, strength=Strength.STRONG, support=(vote,), against=(), rule="schema"
    )


def _firm(s: Suggestion) -> tuple[Differentiability, Strength] | None:
    """The tag ``s`` gives firmly enough to share, and how strongly: a strong or weak verdict
    (onnx's tag where the evidence agrees), or the tag strong evidence finds against one onnx
    set; never a dispute's weak side, a conflict or no evidence."""
    if s.is_math_dispute and weight_of(s.support) >= STRONG_WEIGHT:
        return s.support[0].tag, Strength.STRONG
    if s.strength is Strength.STRONG and s.suggested is not None:
        return s.suggested, Strength.STRONG
    if s.strength is Strength.WEAK and s.suggested is not None and not s.is_problem:
        return s.suggested, Strength.WEAK
    return None


def _same_text(a: Parameter, b: Parameter) -> bool:
    return (a.type_str, a.option, a.description) == (b.type_str, b.option, b.description)


def settle(weighed: Sequence[tuple[Schema, Sequence[Suggestion]]]) -> list[list[Suggestion]]:
    """The suggestions of every version in ``weighed``, after the four steps of the module's
    doc; in the same order."""
    schemas = [schema for schema, _ in weighed]
    found: dict[Key, Suggestion] = {}
    for schema, suggestions in weighed:
        params = _params(schema)
        for s in suggestions:
            basis = (
                schema_basis(schema, s.parameter, params[s.parameter])
                if s.current is UNDEFINED
                else None
            )
            found[_key(s)] = _decided(schema, s, basis) if basis else s
    by_op: dict[tuple[str, str], list[Schema]] = {}
    for schema in schemas:
        by_op.setdefault((schema.domain, schema.name), []).append(schema)
    settled = dict(found)
    for schema in schemas:
        params = _params(schema)
        for ref, param in params.items():
            key = (schema.domain, schema.name, schema.since_version, ref)
            s = found[key]
            if s.current is not UNDEFINED or s.rule == "schema":
                continue
            others = [o for o in by_op[(schema.domain, schema.name)] if o is not schema]
            settled[key] = _settle_one(schema, s, param, _Known(others, schemas, found))
    return [[settled[_key(s)] for s in suggestions] for _, suggestions in weighed]


def _key(s: Suggestion) -> Key:
    return (s.domain, s.op, s.version, s.parameter)


def _nearest(schema: Schema, others: Iterable[Schema]) -> list[Schema]:
    return sorted(others, key=lambda o: (abs(o.since_version - schema.since_version), o.name))


@dataclass(frozen=True)
class _Known:
    """What settling one parameter of a version looks at besides it: the other versions
    of its operator, every schema weighed, and the verdicts found before settling."""

    others: Sequence[Schema]
    schemas: Sequence[Schema]
    found: dict[Key, Suggestion]


def _settle_one(schema: Schema, s: Suggestion, param: Parameter, known: _Known) -> Suggestion:
    ref, found = s.parameter, known.found
    tagged = [
        (o, found[(o.domain, o.name, o.since_version, ref)])
        for o in _nearest(schema, known.others)
        if (o.domain, o.name, o.since_version, ref) in found
        and found[(o.domain, o.name, o.since_version, ref)].current is not UNDEFINED
    ]
    undisputed = [(o, t) for o, t in tagged if not t.is_math_dispute]
    if schema.name in CONTROL_FLOW and undisputed:
        return _as_tagged(s, *undisputed[0], Strength.STRONG, "pass-through")
    if s.strength is not Strength.STRONG:
        shared = _shared(schema, s, param, known)
        if shared is not None:
            s = shared
    contradicted = next(
        ((o, t) for o, t in undisputed if s.suggested and t.current is not s.suggested), None
    )
    if contradicted is not None:
        o, _ = contradicted
        return replace(
            s,
            suggested=None,
            strength=Strength.NONE,
            rule="history",
            shared=o.versioned_name,
        )
    if s.suggested is None and undisputed:
        return _as_tagged(s, *undisputed[0], Strength.WEAK, "as-tagged")
    return s


def _as_tagged(
    s: Suggestion, other: Schema, tagged: Suggestion, strength: Strength, rule: str
) -> Suggestion:
    """``s`` settled as onnx tags the same parameter in ``other`` (``tagged``, its verdict
    there): the schema's own vote, named after that version."""
    vote = Vote(SCHEMA, _verdict_for(tagged.current), other.versioned_name, Basis.SCHEMA)
    return replace(
        s,
        suggested=tagged.current,
        strength=strength,
        support=(vote,),
        against=(),
        rule=rule,
        shared=other.versioned_name,
    )


def _verdict_for(tag: Differentiability) -> Verdict:
    return Verdict.GRADIENT if tag is DIFF else Verdict.REFUSED


def _shared(schema: Schema, s: Suggestion, param: Parameter, known: _Known) -> Suggestion | None:
    """The firm verdict of a peer: the same parameter in a version with the same interface
    and text, or in an operator of the same family; ``None`` when peers disagree or none
    is firm."""
    ref, found = s.parameter, known.found
    peers: list[Schema] = []
    for o in _nearest(schema, known.others):
        theirs = _params(o).get(ref)
        if theirs is not None and (schema.name in ONE_MATHEMATICS or _same_text(theirs, param)):
            peers.append(o)
    family = next((f for f in FAMILIES if (schema.name, ref.part, ref.name) in f), None)
    if family is not None:  # most parameters have none: every schema was looked at for nothing
        peers += _nearest(
            schema,
            (
                o
                for o in known.schemas
                if o.name != schema.name and (o.name, ref.part, ref.name) in family
            ),
        )
    firm = [
        (o, t, verdict)
        for o in peers
        if (t := found.get((o.domain, o.name, o.since_version, ref))) is not None
        and (verdict := _firm(t)) is not None
    ]
    tags = {tag for _, _, (tag, _) in firm}
    if len(tags) != 1:
        return None
    o, t, (tag, strength) = min(firm, key=lambda f: f[2][1] is not Strength.STRONG)
    if s.suggested is not None and (s.suggested is not tag or strength is not Strength.STRONG):
        return None
    return replace(
        s,
        suggested=tag,
        strength=strength,
        support=t.support,
        against=(),
        rule="shared" if strength is Strength.STRONG else "shared-weak",
        shared=o.versioned_name,
    )
