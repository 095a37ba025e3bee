"""Numeric evidence on small custom models: every class, every comparison with the tags.

The ``test.audit`` operators come from ``tests.custom_schemas.audit_impl``,
which registers nothing with onnx: the model is built from unregistered
schemas and the reference evaluator gets the implementations as ``new_ops``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from gendoc.audit import (
    AuditOptions,
    AuditReport,
    ParameterRef,
    Part,
    ProbeSettings,
    Reason,
    audit_reference,
)
from gendoc.audit.report import format_text
from gendoc.evidence.cases import NumericCase
from gendoc.evidence.numeric import PairClass, PairEvidence, cause
from gendoc.evidence.probe import probe_model
from gendoc.evidence.probe_plan import plan_jobs
from tests.custom_schemas import audit_impl
from tests.custom_schemas.audit_impl import I64, IMPLEMENTATIONS, F, audit_cases, model

X = np.array([[0.7, -1.2, 1.5], [-0.6, 1.1, -1.9]], dtype=np.float32)
UNARY = ([("X", F)], [("Y", F)])


def classify(op: str, inputs: tuple[np.ndarray, ...], **kwargs: object) -> PairEvidence:
    io_types = kwargs.pop("io_types", UNARY)
    evidence = probe_model(model(op, *io_types), inputs, new_ops=IMPLEMENTATIONS, **kwargs)
    (pair,) = evidence.pairs
    return pair


def test_linear_output_is_nonzero_and_stable() -> None:
    pair = classify("Double", (X,))
    assert pair.kind is PairClass.NONZERO
    assert pair.nonzero == pair.probes == 5  # one random direction and four elements
    assert pair.max_slope == pytest.approx(2.0, rel=1e-6)


def test_constant_output_is_zero() -> None:
    pair = classify("Vanish", (X,))
    assert (pair.kind, pair.probes, pair.nonzero) == (PairClass.ZERO, 5, 0)


def test_jump_within_a_step_is_unstable() -> None:
    at_jump = X.copy()
    at_jump[0, 0] = 0.0  # Step jumps at 0: the quotient grows as the step shrinks
    pair = classify("Step", (at_jump,))
    assert pair.kind is PairClass.UNSTABLE and pair.unstable >= 1
    assert classify("Step", (X,)).kind is PairClass.ZERO  # away from the jump


def test_integer_output_and_integer_input_are_not_float() -> None:
    pair = classify("Index", (X,), io_types=([("X", F)], [("Y", I64)]))
    assert (pair.kind, pair.cause.reason) == (PairClass.NOT_FLOAT, Reason.NON_FLOAT_OUTPUT)
    assert pair.detail.text == "output is int64"
    integers = np.arange(6, dtype=np.int64).reshape(2, 3)
    pair = classify("Double", (integers,), io_types=([("X", I64)], [("Y", I64)]))
    assert (pair.kind, pair.cause.reason) == (PairClass.NOT_FLOAT, Reason.NON_FLOAT_INPUT)
    assert (pair.detail.id, pair.detail.args) == ("input is {dtype}", {"dtype": "int64"})


def test_unevaluated_pairs_say_why() -> None:
    missing = classify("Broken", (X,))
    assert missing.kind is PairClass.UNEVALUATED
    assert missing.cause.reason is Reason.EVALUATION_FAILED
    assert missing.detail.text.startswith("evaluation failed: NotImplementedError")
    random = classify("Noise", (X,))
    assert random.kind is PairClass.UNEVALUATED
    assert random.cause.reason is Reason.RANDOM
    assert random.detail.text == "two identical runs gave different outputs (a random operator)"
    wrong_arity = probe_model(model("Double", *UNARY), (X, X), new_ops=IMPLEMENTATIONS)
    assert not wrong_arity.ran
    assert wrong_arity.failure == cause(Reason.INPUT_COUNT, given=2, expected=1)
    assert wrong_arity.failure.message.text == "the case has 2 inputs for 1 graph inputs"


def test_float64_falls_back_to_the_model_dtype_and_says_so() -> None:
    evidence = probe_model(model("SingleOnly", *UNARY), (X,), new_ops=IMPLEMENTATIONS)
    assert evidence.pairs[0].kind is PairClass.NONZERO
    assert evidence.pairs[0].max_slope == pytest.approx(3.0, rel=1e-3)
    (note,) = evidence.notes
    assert note.text.startswith("float64 evaluation failed (TypeError: ")
    assert note.text.endswith("; kept the model's dtypes")


def test_probes_repeat_with_the_seed_and_change_with_it() -> None:
    scale = model("Scale", [("X", F), ("S", F)], [("Y", F)])
    inputs = (X, np.array([1.5, -0.5, 2.0], dtype=np.float32))

    def slopes(seed: int, name: str) -> tuple[float, ...]:
        settings = ProbeSettings(seed=seed)
        evidence = probe_model(
            scale, inputs, new_ops=IMPLEMENTATIONS, settings=settings, seed_name=name
        )
        return tuple(p.max_slope for p in evidence.pairs)

    assert slopes(0, "case") == slopes(0, "case")
    assert slopes(0, "case") != slopes(1, "case") or slopes(0, "case") != slopes(0, "other")


def test_expired_deadline_leaves_pairs_unevaluated() -> None:
    evidence = probe_model(
        model("Double", *UNARY), (X,), new_ops=IMPLEMENTATIONS, deadline=time.time() - 1
    )
    assert not evidence.complete
    assert evidence.pairs[0].kind is PairClass.UNEVALUATED
    assert evidence.pairs[0].cause.reason is Reason.OUT_OF_TIME
    assert evidence.pairs[0].detail.text == "time budget exhausted"


def test_merge_keeps_the_most_informative_class() -> None:
    zero = PairEvidence("X", "Y", PairClass.ZERO, probes=4)
    nonzero = PairEvidence("X", "Y", PairClass.NONZERO, probes=4, nonzero=2, max_slope=2.0)
    failed = PairEvidence("X", "Y", PairClass.UNEVALUATED, cause=cause(Reason.NO_PROBE))
    merged = zero.merge(failed).merge(nonzero)
    assert (merged.kind, merged.probes, merged.nonzero, merged.cases) == (
        PairClass.NONZERO,
        8,
        2,
        3,
    )
    assert zero.merge(failed).kind is PairClass.ZERO
    unstable = PairEvidence("X", "Y", PairClass.UNSTABLE, probes=1, unstable=1)
    assert zero.merge(unstable).kind is unstable.merge(zero).kind is PairClass.UNSTABLE


def test_plan_casts_to_float64_only_where_the_types_allow_double() -> None:
    cases = [
        NumericCase("double", model("Double", *UNARY), (X,), IMPLEMENTATIONS),
        NumericCase("single", model("Single", *UNARY), (X,), IMPLEMENTATIONS),
        NumericCase("elsewhere", model("Double", *UNARY), (X,)),
    ]
    reference = audit_impl.reference()
    jobs, skipped = plan_jobs(reference, cases, ProbeSettings())
    by_op = {job.op: job.cases for job in jobs}
    assert [c.float64_inputs for c in by_op["Double"]] == [("X",), ("X",)]
    (single,) = by_op["Single"]
    assert single.float64_inputs == ()
    assert [n.text for n in single.notes] == [
        "input X kept in float32: its types do not include double"
    ]
    assert skipped == []


def test_one_graph_input_feeding_two_parameters_is_not_attributed() -> None:
    both = model("Scale", [("X", F)], [("Y", F)], node_inputs=["X", "X"])
    jobs, _ = plan_jobs(
        audit_impl.reference(),
        [NumericCase("square", both, (X,), IMPLEMENTATIONS)],
        ProbeSettings(),
    )
    (case,) = jobs[0].cases
    assert case.input_params == ()
    assert [n.text for n in case.notes] == ["one graph input feeds S, X; not attributed"]


def _numeric_audit(jobs: int, max_seconds: float | None = None) -> AuditReport:
    options = AuditOptions(numeric=True, jobs=jobs, max_seconds=max_seconds)
    return audit_reference(audit_impl.reference(), options, cases=audit_cases(), progress=False)


def test_mis_tagged_operators_are_reported() -> None:
    report = _numeric_audit(jobs=1)
    numeric = {(f.rule, f.op, str(f.parameter)): f for f in report.findings if f.rule >= "GD1"}
    # Double computes 2 X but tags X non-differentiable.
    double = numeric[("GD101", "Double", "input X")]
    assert double.message == (
        "tagged non-differentiable, but d(Y)/d(X) is stable nonzero at 5 of 5 probes "
        "(|slope| up to 2); test cases: 1"
    )
    # Vanish is tagged differentiable throughout, but its output never moves.
    assert ("GD102", "Vanish", "input X") in numeric
    assert ("GD102", "Vanish", "output Y") in numeric
    # Undefined tags get a suggestion each way.
    assert "suggest differentiable" in numeric[("GD103", "Scale", "input S")].message
    assert "suggest non-differentiable" in numeric[("GD103", "Step", "input X")].message
    assert set(numeric) == {
        ("GD101", "Double", "input X"),
        ("GD102", "Vanish", "input X"),
        ("GD102", "Vanish", "output Y"),
        ("GD103", "Scale", "input X"),
        ("GD103", "Scale", "input S"),
        ("GD103", "Scale", "output Y"),
        ("GD103", "Step", "input X"),
        ("GD103", "Step", "output Y"),
    }
    # The int64 output of Index is a static error; numerically it is simply not float.
    assert ("GD001", "Index", ParameterRef(Part.OUTPUT, "Y")) in {
        (f.rule, f.op, f.parameter) for f in report.findings
    }
    evidence = {e.op: e for e in report.numeric.operators}
    assert [p.kind for p in evidence["Index"].pairs] == [PairClass.NOT_FLOAT]
    assert [n.text for n in evidence["Step"].notes] == [
        "input X kept in float32: its types do not include double"
    ]
    (broken,) = report.numeric.not_evaluated
    assert (broken.op, broken.cause.reason) == ("Broken", Reason.EVALUATION_FAILED)
    assert (report.numeric.with_data, report.numeric.evaluated) == (6, 5)
    assert report.numeric.counts() == {
        PairClass.NONZERO: 3,
        PairClass.ZERO: 2,
        PairClass.UNSTABLE: 0,
        PairClass.NOT_FLOAT: 1,
        PairClass.UNEVALUATED: 0,
    }
    text = format_text(report)
    assert "evidence, not proof" in text
    assert "numeric: 5 of 6 operators with test data evaluated (5 test cases)" in text


def test_serial_and_parallel_runs_agree() -> None:
    serial = _numeric_audit(jobs=1)
    parallel = _numeric_audit(jobs=2)
    assert parallel.to_dict() == serial.to_dict()


def test_time_budget_marks_operators_not_evaluated() -> None:
    report = _numeric_audit(jobs=1, max_seconds=1e-9)
    assert report.numeric.timed_out
    assert report.numeric.operators == ()
    assert {s.cause.reason for s in report.numeric.not_evaluated} == {Reason.OUT_OF_TIME}
    assert "time budget exhausted" in format_text(report)


def test_numeric_findings_and_the_evidence_verdict_read_a_result_alike(reference) -> None:
    """A zero slope next to an integer output's pair: ``audit --numeric`` and ``audit
    --evidence`` both read a zero (one reading, ``gendoc.evidence.numeric_source.read_slopes``)."""
    from gendoc.audit.judge import numeric_findings
    from gendoc.evidence.interface import Verdict
    from gendoc.evidence.numeric import (
        DEFAULT_SETTINGS,
        NumericResult,
        OperatorEvidence,
        Reason,
    )
    from gendoc.evidence.numeric_source import NumericEvidence

    topk = reference.operator("", "TopK").latest
    pairs = (
        PairEvidence("X", "Values", PairClass.ZERO, probes=4),
        PairEvidence(
            "X", "Indices", PairClass.NOT_FLOAT, cause=cause(Reason.NON_FLOAT_OUTPUT, dtype="int64")
        ),
    )
    evidence = OperatorEvidence("", "TopK", topk.since_version, ("case",), pairs, ())
    result = NumericResult(DEFAULT_SETTINGS, 1, (evidence,), (), False)
    scope = reference.scope((), ["TopK"])
    (finding,) = [f for f in numeric_findings(scope, result) if str(f.parameter) == "input X"]
    assert finding.rule == "GD102"  # tagged differentiable, zero where measured
    answer = NumericEvidence(result.operators).evaluate(topk)
    assert answer.verdict_of(ParameterRef(Part.INPUT, "X")).verdict is Verdict.ZERO
    unstable = (PairEvidence("X", "Values", PairClass.UNSTABLE, probes=4, unstable=1), pairs[1])
    evidence = OperatorEvidence("", "TopK", topk.since_version, ("case",), unstable, ())
    result = NumericResult(DEFAULT_SETTINGS, 1, (evidence,), (), False)
    assert not [f for f in numeric_findings(scope, result) if str(f.parameter) == "input X"]
    answer = NumericEvidence(result.operators).evaluate(topk)
    assert answer.verdict_of(ParameterRef(Part.INPUT, "X")).verdict is Verdict.NOT_APPLICABLE
