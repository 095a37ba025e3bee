"""The rule table of gendoc.evidence.verdict, on hand-made votes (no source is run)."""

from __future__ import annotations

from gendoc.evidence.outcome import ParameterEvidence, SourceEvidence, Verdict
from gendoc.evidence.verdict import NUMERIC, Strength, combine
from gendoc.model import Differentiability, Option, Parameter, Schema

D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
G, Z, R = Verdict.GRADIENT, Verdict.ZERO, Verdict.REFUSED


def _schema() -> Schema:
    return Schema(
        name="Op",
        domain="",
        since_version=1,
        inputs=(Parameter("x", "T", "", Option.SINGLE, N),),
    )


def _one(**verdicts: Verdict):
    schema = _schema()
    evidence = [
        SourceEvidence(source, "", "Op", 1, (ParameterEvidence("input", "x", verdict, "why"),))
        for source, verdict in verdicts.items()
    ]
    (suggestion,) = combine(schema, evidence)
    return suggestion


def test_a_framework_gradient_outranks_another_frameworks_refusal() -> None:
    s = _one(pytorch=G, onnxruntime=R)
    assert (s.suggested, s.strength) == (D, Strength.WEAK)
    assert s.outranked == ("onnxruntime: refused (why)",)
    assert s.is_problem and not s.hyperparameter


def test_a_framework_refusal_outranks_a_finite_difference_slope() -> None:
    s = _one(pytorch=R, **{NUMERIC: G})
    assert (s.suggested, s.strength) == (N, Strength.WEAK)
    assert s.outranked == (f"{NUMERIC}: gradient (why)",)
    assert s.hyperparameter


def test_slope_and_framework_gradient_together_outrank_a_refusal() -> None:
    s = _one(pytorch=G, onnxruntime=R, **{NUMERIC: G})
    assert (s.suggested, s.strength) == (D, Strength.STRONG)
    assert len(s.support) == 2


def test_two_agreeing_sources_are_strong_and_disagreeing_ones_conflict() -> None:
    assert _one(pytorch=R, onnxruntime=R).strength is Strength.STRONG
    conflict = _one(pytorch=Z, onnxruntime=G)
    assert (conflict.suggested, conflict.strength) == (None, Strength.CONFLICT)
    assert conflict.describe() == "conflicting evidence"


def test_no_vote_is_no_evidence() -> None:
    s = _one(pytorch=Verdict.UNAVAILABLE)
    assert (s.suggested, s.strength, s.describe()) == (None, Strength.NONE, "no evidence")
