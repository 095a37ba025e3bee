"""gendoc support without onnxruntime: the shipped records, the model reader, the command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from gendoc.cli import main
from gendoc.collect.model_file import NotAModelError, read_model
from gendoc.commands.support import report
from gendoc.runtime.answers import Status, check_node
from gendoc.runtime.ort_kernels import Kernel, from_record, load_record
from gendoc.runtime.scoreboard import main as scoreboard_main
from gendoc.runtime.scoreboard import scoreboard


@pytest.fixture(scope="module")
def table():
    """The shipped record of onnxruntime's CPU kernels (never the installed package)."""
    return from_record(load_record())


def _model(tmp_path: Path, nodes, inputs, outputs, opset=18, inits=(), name="m.onnx") -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    path = tmp_path / name
    onnx.save(model, path)
    return path


def _value(name: str, elem: int = TensorProto.FLOAT, shape=(2, 3)):
    return helper.make_tensor_value_info(name, elem, shape)


def test_kernel_versions_follow_onnxruntimes_rule():
    # KernelRegistry::VerifyKernelDef: the kernel starts at the schema's version, or starts
    # before it and ends (closed) at or after it.
    assert Kernel(13, None, ()).covers(13)
    assert not Kernel(6, None, ()).covers(13)  # an open kernel from 6 is not Abs-13's
    assert Kernel(6, 12, ()).covers(11) and not Kernel(6, 12, ()).covers(13)


def test_record_names_its_release_commit_and_date(table):
    kept = load_record()
    assert (kept["onnxruntime"], kept["commit"], kept["released"]) == (
        "1.32.0",
        "fab30a4",
        "2026-11-13",
    )
    # Abs: onnxruntime 1.32's CPU provider registers it for float at 6-12 and 13
    abs_kernels = table.kernels["", "Abs"]
    assert any(k.start == 13 and ("T", ("tensor(float)",)) in k.types for k in abs_kernels)
    assert table.since_version("", "Abs", 18) == 13


def test_scoreboard_record_is_reextracted_from_a_clone(tmp_path):
    repo = tmp_path / "board"
    folder = repo / "results" / "ort" / "stable"
    folder.mkdir(parents=True)
    rows = [{"domain": "", "op_type": "Abs", "passed_tests": 3, "failed_tests": 1,
             "skipped_tests": 0, "total_tests": 4}]  # fmt: skip
    (folder / "ops.json").write_text(json.dumps(rows))
    (folder / "pip-list.json").write_text(
        json.dumps(
            [{"name": "onnx", "version": "1.22.0"}, {"name": "onnxruntime", "version": "1.27.0"}]
        )
    )
    (folder / "metadata.csv").write_text("Latest Update,2026-07-02 01:13:10\n")
    env = {"GIT_AUTHOR_DATE": "2026-07-02T01:52:50+00:00",
           "GIT_COMMITTER_DATE": "2026-07-02T01:52:50+00:00"}  # fmt: skip
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "benchmark-results", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "r"], check=True, env={**env, "PATH": "/usr/bin:/bin"})
    commit = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    out = tmp_path / "board.json"
    assert scoreboard_main([str(repo), str(out)]) == 0
    kept = json.loads(out.read_text())
    assert kept["commit"] == commit and kept["date"] == "2026-07-02T01:52:50+00:00"
    ort = kept["backends"]["ort"]
    assert (ort["release"], ort["onnx"], ort["ops"]) == ("1.27.0", "1.22.0", {"|Abs": [3, 1, 0]})
    # The shipped record was made the same way from the real scoreboard
    assert len(scoreboard().commit) == 40 and "ort" in scoreboard().backends


def test_model_is_read_without_its_external_data(tmp_path):
    weight = numpy_helper.from_array(np.ones((3, 3), "float32"), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "g",
        [_value("x", shape=(2, 3))],
        [_value("y", shape=None)],
        [weight],
    )
    path = tmp_path / "ext.onnx"
    onnx.save(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]),
        path,
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="weights.bin",
        size_threshold=0,
    )
    (tmp_path / "weights.bin").unlink()  # reading the weights would fail now
    (node,) = read_model(path).nodes
    assert (node.op, node.since_version) == ("MatMul", 13)
    assert [a.type for a in node.inputs] == ["tensor(float)", "tensor(float)"]


def _relu(tmp_path: Path, elem: int) -> Path:
    fed, out = [_value("x", elem)], [_value("y", elem, None)]
    return _model(tmp_path, [helper.make_node("Relu", ["x"], ["y"])], fed, out, name=f"{elem}.onnx")


def test_a_kernel_for_the_types_fed_and_one_without(tmp_path, table):
    # onnxruntime 1.32's CPU provider registers Relu-14 for float, double, int8 and int32
    (node,) = read_model(_relu(tmp_path, TensorProto.INT8)).nodes
    assert check_node(table, node).status is Status.REGISTERED
    # int16: no Relu kernel, and Relu's function body needs Max(int16), not registered either
    (node,) = read_model(_relu(tmp_path, TensorProto.INT16)).nodes
    found = check_node(table, node)
    assert found.status is Status.NO_KERNEL
    assert [where.split(":")[-1] for where in found.blocking] == ["#2 (no kernel for these types)"]
    # uint8 is not a type Relu's schema allows: the model is invalid
    (node,) = read_model(_relu(tmp_path, TensorProto.UINT8)).nodes
    assert check_node(table, node).status is Status.INVALID_TYPE


def test_a_function_body_runs_when_no_kernel_does(tmp_path, table):
    # onnxruntime registers no CastLike kernel: it expands CastLike's function into a Cast
    path = _model(
        tmp_path,
        [helper.make_node("CastLike", ["x", "t"], ["y"])],
        [_value("x"), _value("t", TensorProto.DOUBLE)],
        [_value("y", TensorProto.DOUBLE, None)],
    )
    (node,) = read_model(path).nodes
    assert ("", "CastLike") not in table.kernels or not table.kernels["", "CastLike"]
    assert [inner.op for inner in node.function] == ["Cast"]
    assert check_node(table, node).status is Status.FUNCTION


def test_an_opset_newer_than_the_record_reads(tmp_path, table):
    newest = table.opsets[""]
    path = _model(tmp_path, [helper.make_node("Relu", ["x"], ["y"])], [_value("x")],
                  [_value("y", shape=None)], opset=newest + 1)  # fmt: skip
    node = read_model(path).nodes[0]
    assert check_node(table, node).status is Status.OPSET_TOO_NEW


def test_not_a_model_is_one_line_and_exit_2(tmp_path, capsys):
    junk = tmp_path / "junk.onnx"
    junk.write_text("not a model at all\n")
    assert main(["support", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an ONNX model" in err
    with pytest.raises(NotAModelError):
        read_model(tmp_path / "missing.onnx")
    assert main(["support", "--runtime", "tvm", str(junk)]) == 2


def test_command_formats_exit_status_and_training(tmp_path, capsys):
    path = _model(
        tmp_path,
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Shape", ["r"], ["s"])],
        [_value("x")],
        [helper.make_tensor_value_info("s", TensorProto.INT64, None)],
    )
    assert main(["support", str(path), "--format", "json", "--training"]) == 0
    found = json.loads(capsys.readouterr().out)
    ops = {row["op"]: row for row in found["operators"]}
    assert ops["Relu"]["version"] == 14 and ops["Shape"]["version"] == 15
    assert ops["Relu"]["trains"] == "gradient builder"
    assert ops["Relu"]["inputs"] == [
        {"name": "X", "tag": "differentiable", "type": "tensor(float)"}
    ]
    # Shape reads a float tensor and gives no gradient: it blocks
    assert [b["op"] for b in found["blocking"]] == ["Shape"]
    assert main(["support", str(path), "--format", "markdown", "--runtime", "onnxruntime"]) == 0
    table_md = capsys.readouterr().out
    assert "| Relu-14 | 1 |" in table_md
    # int16 Relu has no kernel on onnxruntime's CPU: exit 1 for CI
    int16 = _relu(tmp_path, TensorProto.INT16)
    assert main(["support", str(int16), "--runtime", "onnxruntime:CPU"]) == 1
    assert "no kernel for these types" in capsys.readouterr().out
    assert report(int16, ["onnx-reference"]).exit_status() == 0
