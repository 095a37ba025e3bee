"""Generated Method 1 scripts run on their own with the venv's python and print a gradient."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gendoc.evidence.scripts import differentiable_inputs, method1_script
from gendoc.model.reference import Reference, Schema

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


def test_the_mapping_speaks_each_versions_names_and_types(reference: Reference) -> None:
    """BatchNormalization-9 calls its running statistics ``mean`` and ``var``; DequantizeLinear
    from version 19 may take a float8 ``x``, which the call then feeds as float8."""
    from gendoc.evidence.torch_ops import torch_op

    def version(op: str, since: int) -> Schema:
        found = reference.operator("", op)
        assert found is not None
        return next(s for s in found.versions if s.since_version == since)

    norm9 = torch_op(version("BatchNormalization", 9))
    norm15 = torch_op(version("BatchNormalization", 15))
    assert norm9 is not None and norm15 is not None
    assert "F.batch_norm(X, mean, var, scale, B" in norm9.call
    assert {"mean", "var"} <= set(norm9.inputs) and "input_mean" not in norm9.inputs
    assert "F.batch_norm(X, input_mean, input_var, scale, B" in norm15.call
    old = torch_op(version("DequantizeLinear", 13))
    new = torch_op(version("DequantizeLinear", 19))
    assert old is not None and new is not None
    assert "float8" not in old.call and "x.to(torch.float8_e4m3fn)" in new.call
