"""The site's evidence pages: which operators get one, and every script they show runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gendoc.evidence.onnx_ad_record import load_record as load_onnx_ad_record
from gendoc.evidence.torch_record import load_record
from gendoc.model.reference import Reference
from gendoc.site import evidence_pages
from gendoc.site.pages import SiteContent

RUNNER = """
import contextlib, io, json, sys
results = []
for name, code in json.load(sys.stdin):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), {"__name__": "__main__"})
    results.append((name, out.getvalue()))
print(json.dumps(results))
"""


def test_pages_exist_for_operators_a_framework_knows(reference: Reference) -> None:
    site = SiteContent(reference, [])
    assert "evidence/index.md" in site.pages
    assert "evidence/ai.onnx/LSTM.md" in site.pages  # torch mapping only
    assert "evidence/ai.onnx/LSTMTraining.md" not in site.pages
    loop = reference.operator("", "Loop")
    assert not evidence_pages.has_evidence(loop)
    assert not any(p.startswith("evidence/ai.onnx.ml/") for p in site.pages)


def test_page_shows_each_sources_verdict_and_the_combined_one(reference: Reference) -> None:
    site = SiteContent(reference, [])
    english, chinese = (site.render("evidence/ai.onnx/Clip.md", lang).text for lang in ["en", "zh"])
    assert "Combined verdict" in english
    # Each source says, as text (no hover), what it ran: the torch call and release, the builder;
    # and each verdict its reason, under it.
    torch = load_record()["torch"]
    clamp = f"torch.clamp(input, min, max) (torch {torch})"
    assert f"<li><strong>pytorch</strong>: {clamp}</li>" in english
    ort = "GetClipGradient for Clip, onnxruntime v1.19.2 (commit ffceed9d44f2)"
    assert f"<strong>onnxruntime</strong>: {ort}" in english
    assert 'refused<span class="gd-why">stop-gradient edge</span>' in english
    # In Chinese the reasons are the catalog's; what is quoted from a source is marked English.
    assert '拒绝求导<span class="gd-why">停止梯度的边</span>' in chinese
    quoted_call = '<span lang="en">torch.clamp(input, min, max)</span>'
    assert f"<li><strong>pytorch</strong>：{quoted_call}（torch {torch}）</li>" in chinese
    assert '<span lang="en">GetClipGradient</span>' in chinese
    onnx_ad = load_onnx_ad_record()["onnx-ad"]
    assert f"<li><strong>onnx-ad</strong>: onnx-ad {onnx_ad} reverse mode on test_clip" in english
    assert "综合结论" in chinese
    assert " title=" not in english.replace('title="Permanent link"', "")


def test_each_evidence_row_has_the_id_an_operator_page_links_to(reference: Reference) -> None:
    """LayerNormalization's parameters are undefined; its badges lead to their rows, and say
    what the evidence suggests and how strongly."""
    site = SiteContent(reference, [])
    op = reference.operator("", "LayerNormalization")
    page = site.render("operators/ai.onnx/LayerNormalization.md", "en").text
    evidence = site.render("evidence/ai.onnx/LayerNormalization.md", "en").text
    for s in op.versions:
        for p in s.inputs:
            row = f"v{s.since_version}-input-{p.name}"
            assert f'<tr id="{row}">' in evidence, row
            badge = f'<span class="gd-tag gd-tag-{p.differentiability.value}">'
            assert f'LayerNormalization.html#{row}">{badge}' in page
    questioned = [
        s
        for v in op.versions
        for s in site.facts.weighed(v).suggestions
        if s.suggested and (s.current.value == "undefined" or s.is_problem)
    ]
    # The evidence page's verdict on every questioned tag is on the operator page too.
    assert page.count('<span class="gd-suggest">evidence suggests') == len(questioned)
    if questioned and questioned[0].strength.value == "strong":
        assert "(strong)</span>" in page


def test_every_script_of_the_site_runs_and_prints_a_gradient(
    reference: Reference, tmp_path: Path
) -> None:
    pytest.importorskip("torch")
    verdicts = evidence_pages.weighed_all(reference)
    scripts = [
        (f"{op.name}:{s.input}", s.code)
        for op in evidence_pages.operators(reference)
        for s in evidence_pages.scripts(op, verdicts[("", op.name, op.latest.since_version)])
    ]
    assert len(scripts) > 150
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(scripts),
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    for name, output in json.loads(done.stdout):
        assert output.startswith(f"{name.split(':')[1]} gradient: tensor("), (name, output)
        assert "None" not in output, name


def test_page_shows_disputed_tags_and_values_torch_never_measured(reference: Reference) -> None:
    """Clip-13's bounds: torch differentiates them, onnx tags them non-differentiable;
    Range's start is a Python scalar of the torch call."""
    site = SiteContent(reference, [])
    clip = site.render("evidence/ai.onnx/Clip.md", "en").text
    assert "disputed" in clip and "有争议" in site.render("evidence/ai.onnx/Clip.md", "zh").text
    range_page = site.render("evidence/ai.onnx/Range.md", "en").text
    scalar = "passed to torch as a Python scalar by the mapping: autograd never sees it"
    assert f'not measured<span class="gd-why">{scalar}</span>' in range_page


def test_an_evidence_page_says_a_disputes_kind_and_notes_what_a_tag_outweighs(
    reference: Reference,
) -> None:
    """NegativeLogLikelihoodLoss's weight: a convention; OneHot's values: torch's composite
    gradient against a tag two other sources back, a note."""
    site = SiteContent(reference, [])
    loss = site.render("evidence/ai.onnx/NegativeLogLikelihoodLoss.md", "en").text
    assert "a convention: differentiable by the mathematics, kept constant by the frameworks" in (
        loss
    )
    assert "the mathematics contradicts the tag" not in loss
    one_hot = site.render("evidence/ai.onnx/OneHot.md", "en").text
    assert "Note: pytorch against the tag, outweighed by the sources backing it" in one_hot
    clip = site.render("evidence/ai.onnx/Clip.md", "zh").text
    assert "数学与该标签相矛盾" in clip
