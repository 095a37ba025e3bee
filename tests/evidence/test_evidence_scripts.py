"""Generated Method 1 scripts run on their own with the venv's python and print a gradient."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gendoc.evidence.scripts import differentiable_inputs, method1_script
from gendoc.model.reference import Reference

SAMPLE = [
    ("MatMul", "B"),
    ("Concat", "inputs"),
    ("GridSample", "grid"),
    ("NegativeLogLikelihoodLoss", "input"),
    ("LSTM", "initial_c"),
]


def test_only_float_tensor_inputs_get_scripts(reference: Reference) -> None:
    assert differentiable_inputs(reference.operator("", "Gather").latest) == ["data"]
    assert differentiable_inputs(reference.operator("", "Loop").latest) == []
    with pytest.raises(ValueError, match="indices"):
        method1_script(reference.operator("", "Gather").latest, "indices")


@pytest.mark.parametrize(("op", "name"), SAMPLE)
def test_generated_script_runs_and_prints_a_nonzero_gradient(
    reference: Reference, tmp_path: Path, op: str, name: str
) -> None:
    pytest.importorskip("torch")
    script = tmp_path / "check.py"
    script.write_text(method1_script(reference.operator("", op).latest, name))
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith(f"{name} gradient:")]
    assert lines, result.stdout
    assert "None" not in result.stdout
    assert "tensor(" in lines[0]


def test_script_is_deterministic(reference: Reference) -> None:
    schema = reference.operator("", "Gemm").latest
    assert method1_script(schema, "C") == method1_script(schema, "C")
    assert "torch.addmm(C, A, B)" in method1_script(schema, "C")
