"""gendoc.evidence.history on hand-made schemas and votes: what the schema decides, what one
history and one family share, and that no suggestion contradicts onnx's tag elsewhere."""

from __future__ import annotations

from gendoc.catalogs.i18n import quoted
from gendoc.evidence.history import settle
from gendoc.evidence.interface import Basis, ParameterEvidence, SourceEvidence, Verdict
from gendoc.evidence.verdict import Strength, Suggestion, combine
from gendoc.model.reference import (
    Differentiability,
    Option,
    Parameter,
    ParameterRef,
    Part,
    Schema,
    TypeConstraint,
)

D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
U = Differentiability.UNDEFINED
FLOAT = TypeConstraint("T", ("tensor(float)",), "")
INT = TypeConstraint("I", ("tensor(int64)",), "")


def _schema(
    name: str,
    version: int,
    inputs: list[tuple[str, str, Differentiability]],
    outputs: list[tuple[str, str, Differentiability]],
    text: str = "",
) -> Schema:
    def params(rows: list[tuple[str, str, Differentiability]]) -> tuple[Parameter, ...]:
        return tuple(Parameter(n, t, text, Option.SINGLE, tag) for n, t, tag in rows)

    return Schema(
        domain="",
        name=name,
        since_version=version,
        inputs=params(inputs),
        outputs=params(outputs),
        type_constraints=(FLOAT, INT),
    )


def _evidence(schema: Schema, **votes: tuple[Verdict, Basis]) -> list[SourceEvidence]:
    """Every named source votes the same on every parameter of ``schema``."""
    return [
        SourceEvidence(
            source,
            schema.domain,
            schema.name,
            schema.since_version,
            tuple(
                ParameterEvidence(ParameterRef(Part.INPUT, p.name), verdict, quoted("why"), basis)
                for p in schema.inputs
            )
            + tuple(
                ParameterEvidence(ParameterRef(Part.OUTPUT, p.name), verdict, quoted("why"), basis)
                for p in schema.outputs
            ),
        )
        for source, (verdict, basis) in votes.items()
    ]


def _settled(*weighed: tuple[Schema, list[SourceEvidence]]) -> dict[str, Suggestion]:
    found = settle([(schema, combine(schema, evidence)) for schema, evidence in weighed])
    return {f"{s.op}-{s.version} {s.parameter}": s for ss in found for s in ss}


GRADIENT = (Verdict.GRADIENT, Basis.AUTOGRAD)
SLOPE = (Verdict.GRADIENT, Basis.SLOPE)


def test_the_schema_decides_with_its_basis_named() -> None:
    """An int64 count, the float output of an operator with integer inputs only, the float
    input of an operator with integer outputs only, and a random draw."""
    count = _schema("Op", 1, [("x", "T", U), ("n", "I", U)], [("y", "T", U)])
    made = _schema("Make", 1, [("shape", "I", U)], [("y", "T", U)])
    argmax = _schema("Find", 1, [("x", "T", U)], [("i", "I", U)])
    draw = _schema("RandomUniformLike", 1, [("input", "T", U)], [("output", "T", U)])
    found = _settled((count, []), (made, []), (argmax, []), (draw, []))
    decided = {
        key: s.support[0].detail
        for key, s in found.items()
        if s.rule == "schema" and s.suggested is N and s.strength is Strength.STRONG
    }
    assert decided == {
        "Op-1 input n": "no-float-type",
        "Make-1 input shape": "no-float-type",
        "Make-1 output y": "no-differentiable-input",
        "Find-1 output i": "no-float-type",
        "Find-1 input x": "no-float-output",
        "RandomUniformLike-1 input input": "random-draw",
        "RandomUniformLike-1 output output": "random-draw",
    }
    assert found["Op-1 input x"].rule == "no-evidence-undefined"  # float in, float out


def test_a_pass_through_value_follows_the_tag_of_its_other_versions() -> None:
    old = _schema("Loop", 1, [("v", "T", U)], [("out", "T", U)])
    new = _schema("Loop", 2, [("v", "T", D)], [("out", "T", D)])
    found = _settled((old, []), (new, []))
    s = found["Loop-1 input v"]
    assert (s.suggested, s.strength, s.rule, s.shared) == (
        D,
        Strength.STRONG,
        "pass-through",
        "Loop-2",
    )


def test_same_text_versions_and_one_family_share_a_strong_verdict() -> None:
    strong = _schema("GRU", 2, [("initial_h", "T", U)], [("Y", "T", U)], "the state")
    same = _schema("GRU", 1, [("initial_h", "T", U)], [("Y", "T", U)], "the state")
    other = _schema("GRU", 3, [("initial_h", "T", U)], [("Y", "T", U)], "another text")
    family = _schema("RNN", 1, [("initial_h", "T", U)], [("Y", "T", U)], "the hidden state")
    found = _settled(
        (strong, _evidence(strong, a=GRADIENT, b=GRADIENT)),
        (same, []),
        (other, []),
        (family, _evidence(family, b=SLOPE)),
    )
    assert found["GRU-2 input initial_h"].strength is Strength.STRONG
    shared = found["GRU-1 input initial_h"]
    assert (shared.suggested, shared.strength, shared.shared) == (D, Strength.STRONG, "GRU-2")
    # Another text: not GRU-2's verdict, but the family's weak one, as weak as it is.
    other_text = found["GRU-3 input initial_h"]
    assert (other_text.suggested, other_text.strength, other_text.shared) == (
        D,
        Strength.WEAK,
        "RNN-1",
    )
    rnn = found["RNN-1 input initial_h"]
    assert (rnn.suggested, rnn.strength, rnn.rule, rnn.shared) == (
        D,
        Strength.STRONG,
        "shared",
        "GRU-2",
    )


def test_no_suggestion_contradicts_an_undisputed_tag_of_another_version() -> None:
    """BatchNormalization-7's running mean: one framework's autograd finds no gradient, but
    onnx tags the same input differentiable in version 9 and nothing disputes that."""
    old = _schema("Norm", 7, [("mean", "T", U)], [("Y", "T", U)])
    new = _schema("Norm", 9, [("mean", "T", D)], [("Y", "T", D)])
    refused = (Verdict.REFUSED, Basis.AUTOGRAD)
    found = _settled((old, _evidence(old, a=refused)), (new, _evidence(new, b=SLOPE)))
    s = found["Norm-7 input mean"]
    assert (s.suggested, s.strength, s.rule, s.shared) == (
        None,
        Strength.NONE,
        "history",
        "Norm-9",
    )
    # Where the mathematics disputes the other version's tag, the suggestion stands.
    disputed = _settled(
        (old, _evidence(old, a=refused, c=refused)),
        (new, _evidence(new, a=refused, c=refused)),
    )
    assert disputed["Norm-9 input mean"].is_math_dispute
    assert disputed["Norm-7 input mean"].suggested is N


def test_with_no_verdict_a_parameter_follows_onnx_tag_elsewhere_weakly() -> None:
    old = _schema("Quant", 1, [("x", "T", U)], [("y", "T", U)])
    new = _schema("Quant", 2, [("x", "T", N)], [("y", "T", N)])
    s = _settled((old, []), (new, []))["Quant-1 input x"]
    assert (s.suggested, s.strength, s.rule, s.shared) == (
        N,
        Strength.WEAK,
        "as-tagged",
        "Quant-2",
    )


def test_versions_whose_text_differs_share_nothing() -> None:
    strong = _schema("Conv", 2, [("x", "T", U)], [("y", "T", U)], "the input")
    other = _schema("Conv", 1, [("x", "T", U)], [("y", "T", U)], "the image")
    found = _settled((strong, _evidence(strong, a=GRADIENT, b=GRADIENT)), (other, []))
    assert found["Conv-1 input x"].suggested is None


def test_the_strongest_peer_is_shared() -> None:
    """RNN's initial state: its own versions weakly, GRU's strongly: as GRU's."""
    rnn = _schema("RNN", 14, [("initial_h", "T", U)], [("Y", "T", U)], "the state")
    older = _schema("RNN", 7, [("initial_h", "T", U)], [("Y", "T", U)], "the state")
    gru = _schema("GRU", 14, [("initial_h", "T", U)], [("Y", "T", U)], "a state")
    found = _settled(
        (rnn, _evidence(rnn, a=GRADIENT)),
        (older, _evidence(older, a=GRADIENT)),
        (gru, _evidence(gru, a=GRADIENT, b=GRADIENT)),
    )
    s = found["RNN-14 input initial_h"]
    assert (s.suggested, s.strength, s.shared) == (D, Strength.STRONG, "GRU-14")
