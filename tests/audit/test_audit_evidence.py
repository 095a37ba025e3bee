"""`gendoc audit --evidence`: one verdict per parameter from every source, with and without torch.

Expected verdicts are the documented behaviour of the sources and the math:
torch's ``clamp`` differentiates its bounds and ``Clip(x, min, max)`` has slope 1
in ``min`` where ``x < min``; onnxruntime's stop-gradient table lists Clip's
inputs 1 and 2 and BatchNormalization's inputs 3 and 4; torch's
``native_batch_norm`` refuses ``running_mean`` (its error message) while the
inference output ``(x - mean) / sqrt(var + eps)`` has a slope in it;
``nll_loss`` refuses its ``weight`` while the weighted mean depends on it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from gendoc.audit import RULES, AuditOptions, Severity, audit, weigh
from gendoc.audit.report import format_json, format_markdown, format_text
from gendoc.catalogs.i18n import translations
from gendoc.commands.audit import run
from gendoc.evidence import sources
from gendoc.evidence.ort_registry import load_registry
from gendoc.evidence.record import interface_key
from gendoc.evidence.source_registry import SOURCES
from gendoc.evidence.sources import TORCH_MISSING, MissingSource
from gendoc.evidence.torch_record import RecordedTorchSource, load_record
from gendoc.model.reference import Reference


def _finding(report, op: str, version: int, parameter: str):
    (found,) = [
        f
        for f in report.findings
        if (f.op, f.version, str(f.parameter)) == (op, version, parameter) and f.rule >= "GD2"
    ]
    return found


def _votes(finding) -> dict[str, tuple[str, str]]:
    return {v.source: (v.verdict, v.detail) for v in finding.evidence}


@pytest.fixture
def no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installation without torch: importing it fails, as it does when it is absent."""
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "gendoc.evidence.torch_source", raising=False)


def _recorded(reference: Reference, ops: list[str]) -> list[str]:
    """Those of ``ops`` whose every version the torch record holds (a newer onnx may add a
    version the record lacks, which only an installed torch can answer)."""
    verdicts = load_record()["verdicts"]
    kept = [
        op
        for op in ops
        if all(interface_key(s) in verdicts for s in reference.operator("", op).versions)
    ]
    assert kept, "the record holds some of the operators"
    return kept


def _numeric_evidence(reference: Reference, ops: list[str]):
    return audit(reference, AuditOptions(ops=ops, numeric=True, evidence=True, jobs=1))


def test_a_strong_contradiction_is_an_error_and_only_disputed(reference: Reference) -> None:
    report = _numeric_evidence(reference, ["Clip"])
    found = _finding(report, "Clip", 13, "input min")
    assert (found.rule, found.severity) == ("GD201", Severity.ERROR)
    assert found.message.startswith("disputed: tagged non-differentiable, but 3 independent")
    assert found.suggested.value == "differentiable"
    votes = _votes(found)
    assert votes["pytorch"] == ("gradient", "nonzero gradient")
    assert votes["onnx-ad"][0] == "gradient"
    assert votes["onnxruntime"] == ("refused", "stop-gradient edge")
    assert votes["finite-differences"] == ("gradient", "stable nonzero slope")
    assert not [f for f in report.findings if f.rule.startswith("GD1")]  # replaced by the verdict


def test_a_slope_outranks_framework_policy_on_a_reviewed_tag(reference: Reference) -> None:
    """BatchNormalization-15's running mean stays differentiable: a note, never a change."""
    report = _numeric_evidence(reference, ["BatchNormalization"])
    found = _finding(report, "BatchNormalization", 15, "input input_mean")
    assert (found.rule, found.severity) == ("GD203", Severity.INFO)
    assert found.suggested.value == "differentiable"
    votes = _votes(found)
    assert votes["pytorch"][0] == "refused" and "running_mean" in votes["pytorch"][1]
    assert votes["finite-differences"][0] == "gradient"
    assert not [f for f in report.findings if f.rule == "GD201"]


def test_a_measured_gradient_against_a_frameworks_declared_refusal_is_a_convention(
    reference: Reference,
) -> None:
    """nll_loss declares its weight not differentiable (policy); onnx-ad's reverse mode and
    the finite differences both find the weighted mean's dependence on it. No framework
    computes that gradient: a convention, information only, never an error."""
    loss = "NegativeLogLikelihoodLoss"
    report = _numeric_evidence(reference, [loss])
    newest = reference.operator("", loss).latest.since_version
    found = _finding(report, loss, newest, "input weight")
    assert (found.rule, found.severity) == ("GD207", Severity.INFO)
    votes = _votes(found)
    assert votes["pytorch"][0] == "refused"
    assert votes["onnx-ad"][0] == votes["finite-differences"][0] == "gradient"
    assert found.message == (
        "a convention: tagged non-differentiable; onnx-ad, finite-differences find "
        "differentiable by the mathematics, pytorch treat it as a constant"
    )


def test_without_torch_the_record_gives_the_same_verdicts(
    reference: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = _recorded(reference, ["BatchNormalization", "Clip", "OneHot", "Range"])
    options = AuditOptions(ops=ops, evidence=True)
    with_torch = audit(reference, options)
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "gendoc.evidence.torch_source", raising=False)
    without = audit(reference, options)
    assert without.to_dict() == with_torch.to_dict()
    status = dict((s.source, s.status) for s in without.sources)["pytorch"].text
    assert status.startswith("recorded with torch 2.") and "(onnx " in status


def test_a_subprocess_that_cannot_import_torch_gives_the_same_report(
    reference: Reference, tmp_path
) -> None:
    """A meta-path finder refuses torch before anything else is imported: the report of
    ``gendoc audit --evidence`` is byte-identical to the one made with torch importable."""
    code = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
if sys.argv[1] == "hide":
    sys.meta_path.insert(0, Refuse())
from gendoc.audit import AuditOptions
from gendoc.audit.report import format_json
from gendoc.commands.audit import run
ops = sys.argv[2].split(",")
sys.stdout.write(format_json(run((), AuditOptions(ops=ops, evidence=True))))
print("torch imported:", "torch" in sys.modules, file=sys.stderr)
"""
    env = {"GENDOC_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": sys.path[0]}
    ops = _recorded(
        reference, ["BatchNormalization", "Clip", "Dropout", "OneHot", "Pad", "Range", "LSTM"]
    )
    outputs = {}
    for mode in ("hide", "show"):
        done = subprocess.run(
            [sys.executable, "-c", code, mode, ",".join(ops)],
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        outputs[mode] = done.stdout
        assert "torch imported: False" in done.stderr  # the record answered everything
    assert outputs["hide"] == outputs["show"]
    assert json.loads(outputs["hide"])["findings"]


def test_a_version_the_record_lacks_without_torch_is_named_with_why(
    reference: Reference,
) -> None:
    clip = reference.operator("", "Clip").latest
    source = RecordedTorchSource({}, live=lambda: MissingSource("pytorch", TORCH_MISSING))
    evidence = source.evaluate(clip)
    assert {p.detail.text for p in evidence.parameters} == {"torch is not installed"}
    status = source.status
    assert status.text == (
        "recorded with a torch record: 0 operator versions; "
        "1 other versions asked live: unavailable: torch is not installed"
    )
    assert status.format(translations("zh").gettext).endswith(
        "另有 1 个版本当场询问：不可用：未安装 torch"
    )


def test_every_rendering_names_what_a_source_could_not_answer(
    reference: Reference, no_torch: None
) -> None:
    report = audit(reference, AuditOptions(ops=["Abs", "Loop"], evidence=True))
    loops = len(reference.operator("", "Loop").versions)
    versions = loops + len(reference.operator("", "Abs").versions)
    data = json.loads(format_json(report))
    by_source = {s["source"]: s["unanswered"] for s in data["sources"]}
    assert {"reason": "no torch mapping", "versions": loops} in by_source["pytorch"]
    assert {"reason": "no gradient builder for Loop", "versions": loops} in by_source["onnxruntime"]
    numeric_missing = "finite differences were not requested (--numeric)"
    assert by_source["finite-differences"] == [{"reason": numeric_missing, "versions": versions}]
    text = format_text(report, "en")
    line = f"evidence source pytorch could not answer {loops} operator versions: no torch mapping"
    assert line in text
    markdown = format_markdown(report, "en")
    assert "| pytorch | recorded with torch" in markdown
    assert f"{loops} operator versions: no torch mapping" in markdown
    zh = f"证据来源 pytorch 无法回答 {loops} 个算子版本：没有 torch 映射"
    assert zh in format_text(report, "zh")


def _latin_words(line: str, kept: list[str]) -> list[str]:
    """The Latin words of ``line`` once the names, versions and code it may keep are removed."""
    for word in sorted(kept, key=len, reverse=True):
        line = line.replace(word, " ")
    return re.findall(r"[A-Za-z]{2,}", line)


def test_a_chinese_report_says_every_source_line_in_chinese(
    reference: Reference, no_torch: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without torch and without a record of Abs, PyTorch is asked live and cannot answer:
    every status line and reason of the Chinese text and Markdown is Chinese around the names,
    versions and operator names, while the English lines and the JSON stay as they were."""
    made_with = "torch 2.13.0+cpu (onnx 1.23.2)"
    torch = replace(SOURCES["pytorch"], make=lambda: RecordedTorchSource({}, made_with=made_with))
    monkeypatch.setitem(SOURCES, "pytorch", torch)
    # onnx-ad's recorded reasons quote the library's own (English) errors: left out here
    monkeypatch.setattr(weigh, "default_sources", lambda: sources.default_sources()[:2])
    report = audit(reference, AuditOptions(ops=["Abs", "Loop", "LabelEncoder"], evidence=True))
    abs_, loop = (len(reference.operator("", op).versions) for op in ("Abs", "Loop"))
    encoders = len([s for s in reference.schemas if s.name == "LabelEncoder"])
    versions = abs_ + loop + encoders
    commit = load_registry()["onnxruntime"]["commit"][:12]
    release = load_registry()["onnxruntime"]["tag"]

    data = json.loads(format_json(report))
    assert data["sources"] == [
        {
            "source": "pytorch",
            "status": f"recorded with {made_with}: 0 operator versions; "
            f"{abs_} other versions asked live: unavailable: torch is not installed",
            "unanswered": sorted(
                [
                    {"reason": "no torch mapping", "versions": loop + encoders},
                    {"reason": "torch is not installed", "versions": abs_},
                ],
                key=lambda r: (-r["versions"], r["reason"]),
            ),
        },
        {
            "source": "onnxruntime",
            "status": f"gradient registry of onnxruntime {release} (commit {commit})",
            "unanswered": sorted(
                [
                    {"reason": "no gradient builder for Loop", "versions": loop},
                    {
                        "reason": "onnxruntime's registry covers the default domain",
                        "versions": encoders,
                    },
                ],
                key=lambda r: (-r["versions"], r["reason"]),
            ),
        },
        {
            "source": "finite-differences",
            "status": "unavailable: finite differences were not requested (--numeric)",
            "unanswered": [
                {
                    "reason": "finite differences were not requested (--numeric)",
                    "versions": versions,
                }
            ],
        },
    ]
    english = format_text(report, "en")
    assert (
        f"evidence source pytorch could not answer {abs_} operator versions: torch is not installed"
    ) in english
    in_markdown = made_with.replace("(", "&#40;").replace(")", "&#41;")  # escaped by the table
    assert f"| pytorch | recorded with {in_markdown}: 0 operator versions; " in (
        format_markdown(report, "en")
    )

    text = format_text(report, "zh")
    lines = [line for line in text.splitlines() if line.startswith("证据来源")]
    assert (
        f"证据来源 pytorch：用 {made_with} 记录：0 个算子版本；"
        f"另有 {abs_} 个版本当场询问：不可用：未安装 torch"
    ) in lines
    assert f"证据来源 pytorch 无法回答 {abs_} 个算子版本：未安装 torch" in lines
    assert f"证据来源 onnxruntime：onnxruntime {release}（提交 {commit}）的梯度注册表" in lines
    assert f"证据来源 onnxruntime 无法回答 {loop} 个算子版本：Loop 没有梯度构建器" in lines
    assert (
        f"证据来源 onnxruntime 无法回答 {encoders} 个算子版本：onnxruntime 的注册表只涵盖默认域"
        in lines
    )
    assert "证据来源 finite-differences：不可用：未要求有限差分（--numeric）" in lines
    markdown = format_markdown(report, "zh")
    table = markdown.split("## 证据来源", 1)[1].split("\n## ", 1)[0]
    rows = [row for row in table.splitlines() if row.startswith("| ") and "---" not in row][1:]
    assert len(lines) == 8 and len(rows) == 3
    kept = ["pytorch", "onnxruntime", "finite-differences", made_with, commit, "--numeric"]
    kept += [in_markdown, "torch", "Loop"]
    for line in [*lines, *rows]:
        assert not _latin_words(line, kept), line
    assert "没有梯度构建器；" in rows[1] or "默认域；" in rows[1], "reasons part with ；"


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
    # torch (recorded) and onnxruntime's builder agree: two full-weight sources.
    assert (abs_x.rule, abs_x.suggested.value) == ("GD204", "differentiable")
    count = _finding(report, "Loop", 1, "input M")
    # M is an int64 trip count: the schema itself decides, and says why.
    assert (count.rule, count.suggested.value, count.message) == (
        "GD208",
        "non-differentiable",
        "undefined; the schema decides non-differentiable: its types hold no floating-point value",
    )
    loop = _finding(report, "Loop", 1, "input v_initial")
    assert (loop.rule, loop.suggested, loop.message) == ("GD205", None, "undefined; no evidence")
    reasons = {v.source: v.detail for v in loop.evidence}
    assert reasons == {
        "pytorch": "no torch mapping",
        "onnxruntime": "no gradient builder for Loop",
        "onnx-ad": "no backend test case fits this version",
        "finite-differences": "finite differences were not requested (--numeric)",
    }


def test_json_findings_carry_the_suggested_tag_and_each_sources_evidence(no_torch: None) -> None:
    report = run((), AuditOptions(ops=["Clip"], evidence=True))
    status = report.exit_status(Severity.ERROR)
    data = json.loads(format_json(report))
    # Clip-13's bounds, tagged non-differentiable: torch and onnx-ad differentiate them
    assert status == 1
    assert [s["source"] for s in data["sources"]] == [
        "pytorch",
        "onnxruntime",
        "onnx-ad",
        "finite-differences",
    ]
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
    """Without finite differences, only policy speaks against BatchNormalization-15's
    running mean (torch's declared refusal, onnxruntime's stop-gradient table, onnx-ad's
    forward mode): a note."""
    report = audit(reference, AuditOptions(ops=["BatchNormalization"], evidence=True))
    found = _finding(report, "BatchNormalization", 15, "input input_mean")
    assert (found.rule, found.suggested) == ("GD203", None)
    text = format_text(report, "zh")
    assert (
        "提示 GD203 ai.onnx BatchNormalization-15 输入 input_mean: "
        "pytorch, onnxruntime, onnx-ad 按框架策略不对它求导；没有任何测量与标签相矛盾"
    ) in text
    markdown = format_markdown(report, "en")
    assert "## Evidence sources" in markdown
    assert "pytorch, onnxruntime, onnx-ad do not differentiate it, by framework policy" in markdown
    assert "## 证据来源" in format_markdown(report, "zh")


def test_the_site_and_the_audit_take_pytorch_from_one_function() -> None:
    from gendoc.site import evidence_pages

    assert type(evidence_pages._sources()[0]) is type(sources.source("pytorch"))


def test_a_chinese_report_says_the_recorded_reasons_in_chinese(reference: Reference) -> None:
    """onnx-ad's status line names the operators it could not answer with the record's reasons:
    in Chinese they are the catalog's, and only what is quoted from onnx-ad (its own errors,
    marked English where a page shows them) stays English; no line of the report reads as an
    English sentence."""
    from gendoc.present.display import Display
    from tests.catalogs.test_catalog_typography import english_like, prose_nodes

    report = audit(reference, AuditOptions(ops=["Clip", "Resize"], evidence=True))
    text = format_text(report, "zh")
    assert "no backend test case fits this version" in format_text(report, "en")
    assert "没有适用于该版本的后端测试用例：" in text
    lines = text.splitlines()
    assert [line for line in lines if english_like(line)] == []
    (onnx_ad,) = [s.status for s in report.sources if s.source == "onnx-ad"]
    shown = Display(translations("zh"), lang="zh").said(onnx_ad)
    assert '<span lang="en">UnsupportedOperator: ' in shown
    assert [node for node in prose_nodes(f"<p>{shown}</p>") if english_like(node)] == []
