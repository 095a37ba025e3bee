"""gendoc support against the installed onnxruntime: the live registry is the record's
source, and the command's answer is what a session does with the model."""

from __future__ import annotations

from pathlib import Path

import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper

from gendoc.collect.model_file import read_model
from gendoc.runtime import ort_kernels
from gendoc.runtime.answers import check_nodes


def test_record_is_what_the_installed_release_extracts(tmp_path):
    kept = ort_kernels.load_record()
    if onnxruntime.__version__ != kept["onnxruntime"]:
        pytest.fail(f"record of {kept['onnxruntime']}, installed {onnxruntime.__version__}")
    out = tmp_path / "kernels.json"
    assert ort_kernels.main(["--released", kept["released"], str(out)]) == 0
    shipped = Path(ort_kernels.__file__).parent / "data" / ort_kernels.DATA_FILE
    assert out.read_bytes() == shipped.read_bytes()
    assert ort_kernels.kernel_table().live


def _loads(path: Path) -> bool:
    try:
        onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception:
        return False
    return True


CASES = {
    # operator, inputs (name, type), outputs, opset, domain
    "relu int8": ("Relu", [TensorProto.INT8], 18, ""),
    "relu int16": ("Relu", [TensorProto.INT16], 18, ""),
    "relu uint8": ("Relu", [TensorProto.UINT8], 18, ""),
    "castlike through Cast": ("CastLike", [TensorProto.FLOAT, TensorProto.DOUBLE], 21, ""),
    "layernorm float16": ("LayerNormalization", [TensorProto.FLOAT16] * 3, 18, ""),
    "abs bfloat16": ("Abs", [TensorProto.BFLOAT16], 18, ""),
    "unknown domain": ("Relu", [TensorProto.FLOAT], 1, "example.unknown"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_answer_matches_a_session(tmp_path, case):
    op, kinds, opset, domain = CASES[case]
    names = [f"i{i}" for i in range(len(kinds))]
    inputs = [
        helper.make_tensor_value_info(n, k, [2, 3]) for n, k in zip(names, kinds, strict=True)
    ]
    node = helper.make_node(op, names, ["y"], domain=domain)
    out = helper.make_empty_tensor_value_info("y")
    imports = [helper.make_opsetid("", 18 if domain else opset)]
    imports += [helper.make_opsetid(domain, opset)] if domain else []
    model = helper.make_model(helper.make_graph([node], "g", inputs, [out]), opset_imports=imports)
    model.ir_version = 10
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    table = ort_kernels.from_record(ort_kernels.load_record())
    answers = check_nodes(table, read_model(path).nodes)
    runs = all(answer.status.runs is not False for _, answer in answers)
    assert runs == _loads(path), [a for _, a in answers]
