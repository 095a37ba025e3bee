"""`gendoc audit --evidence`: one verdict per parameter from every source, with and without torch.

Expected verdicts are the documented behaviour of the sources: torch's
``native_batch_norm`` refuses ``running_mean`` (its error message),
onnxruntime's stop-gradient table lists BatchNormalization's inputs 3 and 4,
and onnx-ad's forward mode refuses them as "statistics, not differentiable
operands" (its BatchNormalization rule).
"""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from gendoc.audit import RULES, AuditOptions, Severity, audit, weigh
from gendoc.audit.command import ReportFormat, run
from gendoc.audit.report import format_markdown, format_text
from gendoc.evidence.sources import TORCH_MISSING
from gendoc.model import Reference


def _finding(report, op: str, version: int, parameter: str):
    (found,) = [
        f
        for f in report.findings
        if (f.op, f.version, str(f.parameter)) == (op, version, parameter) and f.rule >= "GD2"
    ]
    return found


@pytest.fixture
def no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installation without torch, as gendoc.evidence.sources sees it."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )


def test_two_agreeing_sources_contradicting_a_tag_make_an_error(reference: Reference) -> None:
    pytest.importorskip("torch")
    report = audit(reference, AuditOptions(ops=["BatchNormalization"], evidence=True))
    found = _finding(report, "BatchNormalization", 15, "input input_mean")
    assert (found.rule, found.severity) == ("GD201", Severity.ERROR)
    assert found.suggested.value == "non-differentiable"
    votes = {v.source: (v.verdict, v.detail) for v in found.evidence}
    assert votes["pytorch"][0] == "refused" and "running_mean" in votes["pytorch"][1]
    assert votes["onnxruntime"] == ("refused", "stop-gradient edge")
    assert votes["finite-differences"][0] == "unavailable"
    assert "--numeric" in votes["finite-differences"][1]
    # The scale is tagged differentiable and both sources agree: no finding at all.
    assert not [f for f in report.findings if str(f.parameter) == "input scale" and f.version == 15]


def test_without_torch_the_other_sources_decide_and_torch_says_why(
    reference: Reference, no_torch: None
) -> None:
    report = audit(reference, AuditOptions(ops=["BatchNormalization"], evidence=True))
    found = _finding(report, "BatchNormalization", 15, "input input_mean")
    assert (found.rule, found.severity) == ("GD201", Severity.ERROR)
    votes = {v.source: (v.verdict, v.detail) for v in found.evidence}
    assert votes["pytorch"] == ("unavailable", TORCH_MISSING)
    assert votes["onnxruntime"] == ("refused", "stop-gradient edge")
    assert votes["onnx-ad"][0] == "refused" and "statistics" in votes["onnx-ad"][1]
    assert dict(report.sources)["pytorch"] == f"unavailable: {TORCH_MISSING}"


def test_every_undefined_parameter_gets_a_suggestion_or_no_evidence(
    reference: Reference, no_torch: None
) -> None:
    report = audit(reference, AuditOptions(ops=["Abs", "Loop"], evidence=True))
    undefined = [
        (s.name, s.since_version, p.name)
        for op in ("Abs", "Loop")
        for s in reference.operator("", op).versions
        for p in s.parameters
        if p.differentiability.value == "undefined"
    ]
    judged = {(f.op, f.version, f.parameter.name) for f in report.findings if f.rule >= "GD2"}
    assert set(undefined) <= judged
    abs_x = _finding(report, "Abs", 6, "input X")
    # onnxruntime's builder and onnx-ad's adjoint, without torch
    assert (abs_x.rule, abs_x.suggested.value) == ("GD204", "differentiable")
    loop = _finding(report, "Loop", 1, "input M")
    assert (loop.rule, loop.suggested, loop.message) == ("GD205", None, "undefined; no evidence")
    reasons = {v.source: v.detail for v in loop.evidence}
    assert reasons == {
        "pytorch": TORCH_MISSING,
        "onnxruntime": "no gradient builder for Loop",
        "onnx-ad": "no backend test case fits this version",
        "finite-differences": "finite differences were not requested (--numeric)",
    }


def test_a_framework_refusal_outranks_a_slope_as_an_info_note(
    reference: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    """torch refuses NegativeLogLikelihoodLoss's weight, finite differences find a slope.
    onnx-ad differentiates the operator and finds a gradient: that outranks torch's refusal
    (rule 1). Without onnx-ad the refusal outranks the slope (rule 2): an info note."""
    pytest.importorskip("torch")
    loss = "NegativeLogLikelihoodLoss"
    options = AuditOptions(ops=[loss], numeric=True, evidence=True, jobs=1)
    newest = max(s.since_version for s in reference.schemas if s.name == loss)
    report = audit(reference, options)
    found = _finding(report, loss, newest, "input weight")
    assert (found.rule, found.suggested.value) == ("GD201", "differentiable")
    votes = {v.source: v.verdict for v in found.evidence}
    assert votes == {
        "pytorch": "refused",
        "onnxruntime": "unavailable",
        "onnx-ad": "gradient",
        "finite-differences": "gradient",
    }

    every = weigh.default_sources
    monkeypatch.setattr(
        weigh, "default_sources", lambda: [s for s in every() if s.name != "onnx-ad"]
    )
    report = audit(reference, options)
    found = _finding(report, loss, newest, "input weight")
    assert (found.rule, found.severity) == ("GD203", Severity.INFO)
    assert "treat this input as a hyperparameter" in found.message
    votes = {v.source: v.verdict for v in found.evidence}
    assert votes == {
        "pytorch": "refused",
        "onnxruntime": "unavailable",
        "finite-differences": "gradient",
    }
    assert not [f for f in report.findings if f.rule.startswith("GD1")]  # replaced by the verdict


def test_json_findings_carry_the_suggested_tag_and_each_sources_evidence(no_torch: None) -> None:
    out = io.StringIO()
    status = run(
        (), AuditOptions(ops=["Clip"], evidence=True), report_format=ReportFormat.JSON, out=out
    )
    data = json.loads(out.getvalue())
    assert status == 0
    assert [s["source"] for s in data["sources"]] == [
        "pytorch",
        "onnxruntime",
        "onnx-ad",
        "finite-differences",
    ]
    assert data["sources"][2]["status"].startswith("onnx-ad 0.3.0, reverse mode on ")
    clip1 = next(f for f in data["findings"] if (f["version"], f["name"]) == (1, "input"))
    assert clip1["suggested"] == "differentiable"
    assert clip1["evidence"][1] == {
        "source": "onnxruntime",
        "verdict": "gradient",
        "detail": "GI(0) in GetClipGradient",
    }
    assert {r["id"] for r in data["rules"] if r["evidence"]} == {
        r.id for r in RULES.values() if r.evidence
    }


def test_text_and_markdown_show_the_verdict_in_both_languages(
    reference: Reference, no_torch: None
) -> None:
    report = audit(reference, AuditOptions(ops=["BatchNormalization"], evidence=True))
    text = format_text(report, "zh")
    assert (
        "错误 GD201 ai.onnx BatchNormalization-15 输入 input_mean: "
        "标为可微，但 2 个独立来源一致认为是不可微：onnxruntime, onnx-ad"
    ) in text
    assert f"证据来源 pytorch：unavailable: {TORCH_MISSING}" in text
    markdown = format_markdown(report, "en")
    assert "## Evidence sources" in markdown
    assert "2 independent sources agree on non-differentiable: onnxruntime, onnx-ad" in markdown
    assert "## 证据来源" in format_markdown(report, "zh")
