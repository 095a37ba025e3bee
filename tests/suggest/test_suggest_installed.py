"""``gendoc suggest``'s real wiring: the installed onnx, the shipped evidence, a small checkout.

Nothing is stubbed: the schema locations onnx recorded when it was built
(:func:`~gendoc.suggest.installed_facts.installed_locations`) and the evidence
of every source (:func:`~gendoc.suggest.installed_facts.gather_suggestions`) meet
the hand-written sources of ``tests/fixtures/onnx_src``, whose ``Relu-6`` leaves
its tags unset as onnx's own does, and whose ``Clip-13`` onnx tags ``min`` and
``max`` non-differentiable although ``torch.clamp`` passes a gradient to both.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import onnx

from gendoc.collect import installed
from gendoc.commands.suggest import run
from gendoc.evidence.verdict import Strength
from gendoc.model.reference import Differentiability
from gendoc.present.render import RenderOptions, render_documents

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "onnx_src"


def _checkout(tmp_path: Path) -> Path:
    """The fixture as a checkout of the installed onnx: its version and its documents."""
    root = tmp_path / "onnx"
    shutil.copytree(FIXTURE, root)
    (root / "VERSION_NUMBER").write_text(onnx.__version__ + "\n")
    (root / "docs").mkdir()
    for name, text in render_documents(installed.reference(), RenderOptions(style="onnx")).items():
        (root / "docs" / name).write_text(text, newline="")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def test_the_installed_onnx_and_its_evidence_patch_a_small_checkout(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    result = run(root, Strength.STRONG)
    changed = {
        (s.op, s.version, str(s.parameter), s.suggested)
        for change in result.plan.changes
        for s in change.suggestions
    }
    diff = Differentiability.DIFFERENTIABLE
    assert changed == {("Relu", 6, "input X", diff), ("Relu", 6, "output Y", diff)}
    disputed = {
        (d.suggestion.op, d.suggestion.version, str(d.suggestion.parameter))
        for d in (result.plan.disputed)
    }
    assert {("Clip", 13, "input min"), ("Clip", 13, "input max")} <= disputed
    assert "OpSchema::Differentiable" in result.patch
    assert "+++ b/onnx/defs/math/old.cc" in result.patch
    assert "+++ b/docs/Changelog.md" in result.patch
    (tmp_path / "p").write_text(result.patch)
    applied = subprocess.run(["git", "apply", "--check", str(tmp_path / "p")], cwd=root)
    assert applied.returncode == 0
    lines = result.description.splitlines()
    assert any(line.startswith("- PyTorch autograd: ") for line in lines)
    assert any(
        line.startswith("- onnxruntime gradient registry: ") and " onnxruntime v" in line
        for line in lines
    )
