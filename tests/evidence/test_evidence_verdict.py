"""The rule registry of gendoc.evidence.verdict, on hand-made votes (no source is run).

The expected verdicts follow the rules as the module documents them: a
gradient that exists sets refusals aside, composite expressions and
training shortcuts weigh half, a strong side weighs 2, and a tag onnx set is
only ever disputed.
"""

from __future__ import annotations

from gendoc.catalogs.i18n import quoted
from gendoc.evidence.interface import Basis, ParameterEvidence, SourceEvidence, Verdict
from gendoc.evidence.source_registry import NUMERIC
from gendoc.evidence.verdict import (
    VERDICT_RULES,
    DisputeKind,
    Strength,
    Suggestion,
    Vote,
    combine,
)
from gendoc.evidence.verdict_text import REPORTS, describe_verdict
from gendoc.model.reference import Differentiability, Option, Parameter, ParameterRef, Part, Schema

D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
U = Differentiability.UNDEFINED
G, Z, R = Verdict.GRADIENT, Verdict.ZERO, Verdict.REFUSED
AUTOGRAD, COMPOSITE, POLICY, SLOPE = Basis.AUTOGRAD, Basis.COMPOSITE, Basis.POLICY, Basis.SLOPE


def _one(tag: Differentiability, **votes: Verdict | tuple[Verdict, Basis]) -> Suggestion:
    schema = Schema(
        name="Op", domain="", since_version=1, inputs=(Parameter("x", "T", "", Option.SINGLE, tag),)
    )
    evidence = []
    for source, vote in votes.items():
        verdict, basis = vote if isinstance(vote, tuple) else (vote, AUTOGRAD)
        param = ParameterEvidence(ParameterRef(Part.INPUT, "x"), verdict, quoted("why"), basis)
        evidence.append(SourceEvidence(source, "", "Op", 1, (param,)))
    (suggestion,) = combine(schema, evidence)
    return suggestion


SETTLING = {"schema", "pass-through", "shared", "shared-weak", "as-tagged", "history"}
"""The rules gendoc.evidence.history.settle names (its module doc lists them)."""


def test_every_rule_has_a_unique_name_and_every_report_is_a_rules() -> None:
    assert len({r.name for r in VERDICT_RULES}) == len(VERDICT_RULES)
    silent = {"no-evidence", "noted", "agrees"}
    assert set(REPORTS) == ({r.name for r in VERDICT_RULES} | SETTLING) - silent
    assert all(r.finding.startswith("GD2") and r.message for r in REPORTS.values())
    assert VERDICT_RULES[-1].name not in REPORTS  # the catch-all reports nothing


def test_a_gradient_that_exists_sets_a_refusal_aside() -> None:
    s = _one(U, pytorch=G, onnxruntime=(R, POLICY))
    assert (s.suggested, s.strength, s.rule) == (D, Strength.WEAK, "suggested")
    assert s.outranked == (Vote("onnxruntime", R, "why", POLICY),)


def test_a_stable_slope_outranks_framework_policy_but_not_what_autograd_found() -> None:
    s = _one(U, pytorch=(R, POLICY), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength) == (D, Strength.WEAK)
    assert [v.source for v in s.outranked] == ["pytorch"]
    # Autograd tracing no path against a slope: a conflict.
    conflict = _one(U, pytorch=R, **{NUMERIC: (G, SLOPE)})
    assert (conflict.suggested, conflict.strength, conflict.outranked) == (
        None,
        Strength.CONFLICT,
        (),
    )


def test_a_composite_gradient_sets_nothing_aside_and_weighs_half() -> None:
    conflict = _one(U, pytorch=(G, COMPOSITE), onnxruntime=(R, POLICY))
    assert (conflict.suggested, conflict.strength) == (None, Strength.CONFLICT)
    assert conflict.outranked == ()
    # A composite and a full-weight source agree: 1.5, not strong.
    assert _one(U, pytorch=(G, COMPOSITE), **{NUMERIC: (G, SLOPE)}).strength is Strength.WEAK
    assert _one(U, pytorch=G, **{NUMERIC: (G, SLOPE)}).strength is Strength.STRONG


def test_a_training_shortcut_does_not_make_a_refusal_strong() -> None:
    s = _one(U, pytorch=R, onnxruntime=(R, POLICY))
    assert (s.suggested, s.strength) == (N, Strength.WEAK)
    assert _one(U, pytorch=R, onnxruntime=R).strength is Strength.STRONG


def test_a_defined_tag_is_disputed_never_suggested_for_change() -> None:
    s = _one(N, pytorch=G, onnxruntime=(R, POLICY), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (D, Strength.DISPUTED, "contradicted")
    assert s.is_problem
    assert [v.source for v in s.support] == ["pytorch", NUMERIC]
    assert [v.source for v in s.against] == ["onnxruntime"]  # the side backing the tag
    assert s.kind is DisputeKind.MATH  # torch's autograd computes the gradient
    assert describe_verdict(s).startswith(
        "disputed (math): onnx tags it non-differentiable; against the tag"
    )


def test_a_slope_against_a_frameworks_refusal_is_a_convention() -> None:
    """NegativeLogLikelihoodLoss's weight: torch declares it has no derivative, the loss has
    a slope in it. The slope outweighs the declaration: a dispute, of the convention kind."""
    s = _one(N, pytorch=(R, POLICY), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (D, Strength.DISPUTED, "convention")
    assert s.kind is DisputeKind.CONVENTION and not s.is_math_dispute
    assert [v.source for v in s.support] == [NUMERIC]
    assert [v.source for v in s.against] == ["pytorch"]
    assert describe_verdict(s) == (
        "disputed (convention): onnx tags it non-differentiable; against the tag: "
        f"{NUMERIC}: gradient (why); for the tag: pytorch: refused (why) [policy]"
    )


def test_a_lone_outweighed_vote_is_a_note_not_a_dispute() -> None:
    """Det: torch and the slope find a gradient; a single zero against them is a note."""
    s = _one(D, pytorch=G, onnx_ad=Z, **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (D, Strength.WEAK, "noted")
    assert not s.is_problem and s.kind is None
    assert [v.source for v in s.noted] == ["onnx_ad"]
    # Against a tag backed by one full-weight source, two agreeing ones outweigh it.
    outweighed = _one(N, pytorch=G, onnxruntime=(R, Basis.BUILDER), **{NUMERIC: (G, SLOPE)})
    assert (outweighed.rule, outweighed.kind) == ("disputed", DisputeKind.MATH)
    # A tie is not a dispute.
    assert _one(N, pytorch=G, onnxruntime=(R, Basis.BUILDER)).rule == "noted"


def test_a_declared_zero_weighs_as_policy() -> None:
    """onnx-ad's table of zero derivatives against a tag: set aside, as a training shortcut."""
    s = _one(D, onnx_ad=(Z, POLICY))
    assert (s.strength, s.rule, s.is_problem) == (Strength.NONE, "policy-only", False)


def test_policy_alone_never_disputes_a_tag_onnx_set() -> None:
    """BatchNormalization-14's running mean: torch and onnxruntime keep it out of training,
    nothing is measured; the tag stands, with a note. Nor does it suggest an undefined tag."""
    s = _one(D, pytorch=(R, POLICY), onnxruntime=(R, POLICY))
    assert (s.suggested, s.strength, s.rule) == (None, Strength.NONE, "policy-only")
    assert not s.is_problem and len(s.outranked) == 2
    alone = _one(U, pytorch=(R, POLICY), onnxruntime=(R, POLICY))
    assert (alone.suggested, alone.strength, alone.rule) == (None, Strength.NONE, "policy-alone")


def test_a_composite_and_a_slope_against_a_tag_are_not_a_tag_error() -> None:
    """OneHot's values: our expression and the slope against a stop-gradient edge."""
    s = _one(N, pytorch=(G, COMPOSITE), onnxruntime=(R, POLICY), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (D, Strength.DISPUTED, "convention")


def test_a_tag_backed_by_a_slope_over_refusals_is_at_most_a_note() -> None:
    """BatchNormalization's running mean: tagged differentiable, frameworks keep it as a
    buffer, finite differences find a slope."""
    s = _one(D, pytorch=(R, POLICY), onnxruntime=(R, POLICY), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (D, Strength.WEAK, "refusal-set-aside")
    assert not s.is_problem


def test_weak_evidence_against_a_tag_is_questioned() -> None:
    s = _one(D, pytorch=Z)
    assert (s.suggested, s.strength, s.rule) == (N, Strength.DISPUTED, "questioned")


def test_no_vote_is_no_evidence_and_not_measured_is_no_vote() -> None:
    s = _one(U, pytorch=Verdict.NOT_MEASURED, onnxruntime=Verdict.UNAVAILABLE)
    assert (s.suggested, s.strength, describe_verdict(s)) == (None, Strength.NONE, "no evidence")
    assert _one(N, pytorch=Verdict.NOT_MEASURED).rule == "no-evidence"


def test_composite_means_arithmetic_of_our_own_on_an_input() -> None:
    from gendoc.evidence.torch_ops import TORCH_OPS, Real, op

    assert TORCH_OPS["OneHot"].composite and TORCH_OPS["HardSigmoid"].composite
    assert not TORCH_OPS["MatMul"].composite
    assert not TORCH_OPS["Hardmax"].composite  # input.shape[-1]: arithmetic on a constant
    assert not op("torch.sum(x, -1)", x=Real(2)).composite
    assert op("-x", x=Real(2)).composite


def test_a_side_that_outweighs_the_other_by_a_full_source_wins_weakly() -> None:
    """Two frameworks that do not differentiate an output against one slope."""
    s = _one(U, pytorch=R, onnxruntime=(R, Basis.BUILDER), **{NUMERIC: (G, SLOPE)})
    assert (s.suggested, s.strength, s.rule) == (N, Strength.WEAK, "outweighed")
    assert [v.source for v in s.support] == ["pytorch", "onnxruntime"]
    assert [v.source for v in s.against] == [NUMERIC]
    # Half a source apart is still a conflict.
    close = _one(U, pytorch=(R, COMPOSITE), **{NUMERIC: (G, SLOPE)})
    assert (close.suggested, close.strength) == (None, Strength.CONFLICT)
