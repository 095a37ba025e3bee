"""The site's evidence pages: which operators get one, and every script they show runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gendoc.evidence.onnx_ad_record import load_record as load_onnx_ad_record
from gendoc.evidence.torch_record import load_record
from gendoc.model import Reference
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
    # Each source's column says, on hover, what it ran: the torch call and release, the builder.
    torch = load_record()["torch"]
    assert f'<span title="torch.clamp(input, min, max) (torch {torch})">pytorch</span>' in english
    ort = "GetClipGradient for Clip, onnxruntime v1.19.2 (commit ffceed9d44f2)"
    assert f'<span title="{ort}' in english
    onnx_ad = load_onnx_ad_record()["onnx-ad"]
    assert f'<span title="onnx-ad {onnx_ad} reverse mode on test_clip' in english
    assert '<span title="stop-gradient edge">refused</span>' in english
    assert '<span title="stop-gradient edge">拒绝求导</span>' in chinese
    assert "综合结论" in chinese


def test_every_script_of_the_site_runs_and_prints_a_gradient(
    reference: Reference, tmp_path: Path
) -> None:
    pytest.importorskip("torch")
    scripts = [
        (f"{op.name}:{s.input}", s.code)
        for op in evidence_pages.operators(reference)
        for s in evidence_pages.scripts(op)
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
    assert f'<span title="{scalar}">not measured</span>' in range_page
