"""onnxruntime's other execution providers, read from its generated kernel table
(docs/OperatorKernels.md): the parser on an excerpt written by hand, the re-extraction from
a clone, the shipped record's invariants, and ``gendoc support --runtime onnxruntime:CUDA``."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from gendoc.cli import main as cli_main
from gendoc.commands.support import report
from gendoc.runtime import ort_kernel_doc
from gendoc.runtime.ort_kernel_doc import KernelDocError, parse
from gendoc.runtime.ort_kernels import PROVIDER, load_record

# The layout onnxruntime's tools/python/gen_opkernel_doc.py writes, abridged by hand: a
# section per provider, a domain row, an operator's first row then its older ranges, and the
# blank row between domains.
EXCERPT = """\
## Supported Operators and Data Types

## Execution Providers

- [CPUExecutionProvider](#cpuexecutionprovider)
- [CUDAExecutionProvider](#cudaexecutionprovider)

---------------

<a name="cpuexecutionprovider"/>

## Operators implemented by CPUExecutionProvider

| Op Name | Parameters | OpSet Version | Types Supported |
|---------|------------|---------------|-----------------|
|**Operator Domain:** *ai.onnx*||||
|Abs|*in* X:**T**<br> *out* Y:**T**|13+|**T** = tensor(float), tensor(double)|
| |
| |


<a name="cudaexecutionprovider"/>

## Operators implemented by CUDAExecutionProvider

| Op Name | Parameters | OpSet Version | Types Supported |
|---------|------------|---------------|-----------------|
|**Operator Domain:** *ai.onnx*||||
|Relu|*in* X:**T**<br> *out* Y:**T**|14+|**T** = tensor(float), tensor(float16)|
|||13|**T** = tensor(float)|
|||[6, 12]|**T** = tensor(double), tensor(float)|
|Cast|x|19+|**T1** = tensor(float), tensor(int64)<br/> **T2** = tensor(float)|
| |
| |
|**Operator Domain:** *com.microsoft*||||
|FusedConv|*in* X:**T**<br> *out* Y:**T**|1+|**T** = seq(tensor(float)), map(int64,tensor(float))|
"""


def test_parser_reads_each_provider_domain_operator_and_range():
    found = parse(EXCERPT)
    assert found == {
        "CPUExecutionProvider": {
            "|Abs": [[13, None, {"T": ["tensor(double)", "tensor(float)"]}]],
        },
        "CUDAExecutionProvider": {
            "com.microsoft|FusedConv": [
                [1, None, {"T": ["map(int64,tensor(float))", "seq(tensor(float))"]}]
            ],
            "|Cast": [
                [19, None, {"T1": ["tensor(float)", "tensor(int64)"], "T2": ["tensor(float)"]}]
            ],
            "|Relu": [
                [6, 12, {"T": ["tensor(double)", "tensor(float)"]}],
                [13, 13, {"T": ["tensor(float)"]}],
                [14, None, {"T": ["tensor(float)", "tensor(float16)"]}],
            ],
        },
    }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("|||13-14|**T** = tensor(float)|", r"line \d+: version range '13-14'"),
        ("|||13|T = tensor(float)|", r"line \d+: type constraint 'T = tensor\(float\)'"),
    ],
)
def test_parser_names_the_line_it_cannot_read(line, message):
    with pytest.raises(KernelDocError, match=message):
        parse(EXCERPT.replace("|||13|**T** = tensor(float)|", line))


def test_parser_refuses_a_file_without_provider_sections():
    with pytest.raises(KernelDocError, match="no section"):
        parse("# Operators\n|Relu|x|14+|**T** = tensor(float)|\n")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def clone(tmp_path):
    repo = tmp_path / "onnxruntime"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "OperatorKernels.md").write_text(EXCERPT, encoding="utf-8")
    (repo / "VERSION_NUMBER").write_text("9.8.0\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    env = "GIT_COMMITTER_DATE=2026-03-04T05:06:07+00:00"
    subprocess.run(
        [
            "env",
            env,
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=x",
            "-c",
            "user.email=x@x",
            "commit",
            "-q",
            "-m",
            "kernels",
        ],
        check=True,
    )
    return repo


def test_record_from_a_clone_names_its_commit_date_and_version(clone, tmp_path):
    out = tmp_path / "out" / "kernels.json"
    assert ort_kernel_doc.main([str(clone), str(out)]) == 0
    kept = json.loads(out.read_text("utf-8"))
    commit = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    # not a release: named like onnxruntime's nightly packages
    assert (kept["onnxruntime"], kept["commit"], kept["release"]) == (
        "9.8.0.dev20260304",
        commit,
        False,
    )
    assert kept["date"] == "2026-03-04T05:06:07+00:00"
    assert kept["providers"] == ["CUDAExecutionProvider"]  # CPU comes from the registry
    assert set(kept["kernels"]) == {
        "CUDAExecutionProvider|com.microsoft|FusedConv",
        "CUDAExecutionProvider||Cast",
        "CUDAExecutionProvider||Relu",
    }
    _git(clone, "tag", "v9.8.0")
    assert ort_kernel_doc.main([str(clone), "--ref", "v9.8.0", str(out)]) == 0
    kept = json.loads(out.read_text("utf-8"))
    assert (kept["onnxruntime"], kept["release"]) == ("9.8.0", True)


def test_a_folder_that_is_no_clone_is_one_line_and_exit_2(tmp_path, capsys):
    out = tmp_path / "kernels.json"
    assert ort_kernel_doc.main([str(tmp_path), str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gendoc: git rev-parse") and err.count("\n") == 1
    assert not out.exists()


def test_shipped_record_keeps_its_invariants():
    kept = ort_kernel_doc.load_providers_record()
    assert re.fullmatch(r"[0-9a-f]{40}", kept["commit"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", kept["date"])
    date = kept["date"][:10].replace("-", "")
    assert kept["release"] or kept["onnxruntime"].endswith(f".dev{date}")
    assert PROVIDER not in kept["providers"] and kept["providers"] == sorted(kept["providers"])
    schemas = set(load_record()["operators"])
    unknown = set()
    for key, kernels in kept["kernels"].items():
        provider, domain, op = key.split("|")
        assert provider in kept["providers"], key
        assert kernels == sorted(
            kernels, key=lambda k: (k[0], -1 if k[1] is None else k[1], json.dumps(k[2]))
        )
        for start, end, types in kernels:
            assert start >= 1 and (end is None or end >= start), key
            assert types and all(kinds == sorted(set(kinds)) for kinds in types.values()), key
        if f"{domain}|{op}" not in schemas:
            unknown.add((provider, domain, op))
    # Every operator is one onnxruntime's schemas know, but DirectML's internal fused ones
    # and a "GroupNorm" its table lists in the default domain with no parameters (checked by
    # hand in the Markdown at the recorded commit): registered under a name no schema has.
    assert {(p, d) for p, d, op in unknown if op != "GroupNorm"} == {
        ("DmlExecutionProvider", "com.microsoft.dml")
    }
    assert ("DmlExecutionProvider", "", "GroupNorm") in unknown
    # every provider has kernels in the default domain
    for provider in kept["providers"]:
        assert any(k.startswith(f"{provider}||") for k in kept["kernels"])
    # checked by hand in the Markdown at the recorded commit: CUDA's Relu-14 takes float16
    relu = kept["kernels"]["CUDAExecutionProvider||Relu"]
    assert [14, None] in [k[:2] for k in relu]
    assert "tensor(float16)" in next(k[2]["T"] for k in relu if k[0] == 14)


def _model(tmp_path: Path) -> Path:
    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Det", ["y"], ["z"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [])],
    )
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), path)
    return path


def test_a_provider_answers_from_its_table_and_falls_back_to_cpu(tmp_path):
    found = report(_model(tmp_path), ["onnxruntime:CUDA"])
    (runtime,) = found.runtimes
    assert (
        runtime.name == "onnxruntime:CUDA" and "session.disable_cpu_ep_fallback" in runtime.notes[0]
    )
    answers = {row.op: row.answers[0] for row in found.rows}
    assert answers["Relu"].status == "registered"
    assert "CUDA table" in answers["Relu"].detail
    # Det has no CUDA kernel at the recorded commit (checked by hand); the CPU provider has one
    assert answers["Det"].status == "no kernel in this provider: runs on the CPU provider"
    assert answers["Det"].runs is True and found.exit_status() == 0
    # the scoreboard's onnxruntime backend runs the CPU provider: no test counts here
    assert answers["Relu"].tests == "unknown"


def test_provider_names_as_readers_write_them(tmp_path, capsys):
    assert ort_kernel_doc.find_provider("directml") == "DmlExecutionProvider"
    assert ort_kernel_doc.find_provider("CUDAExecutionProvider") == "CUDAExecutionProvider"
    assert cli_main(["support", str(_model(tmp_path)), "--runtime", "onnxruntime:TPU"]) == 2
    err = capsys.readouterr().err
    assert "onnxruntime:CUDA, onnxruntime:DirectML" in err and err.count("\n") == 1


def test_a_node_the_cpu_provider_refuses_too_is_refused(tmp_path):
    # checked by hand: Det has no CUDA or DirectML kernel in the Markdown at the recorded
    # commit, and onnxruntime 1.32.0's CPU registry (the record) has Det for float alone
    node = helper.make_node("Det", ["x"], ["y"])
    x = helper.make_tensor_value_info("x", TensorProto.DOUBLE, [3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.DOUBLE, [])
    path = tmp_path / "det.onnx"
    graph = helper.make_graph([node], "g", [x], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]), path)
    found = report(path, ["onnxruntime:CUDA", "onnxruntime:DirectML"])
    for answer in found.rows[0].answers:
        assert (answer.status, answer.runs) == ("no kernel for these types", False)
        assert ": no kernel for these types (Det-22 fed T=tensor(double))" in answer.detail
    assert found.exit_status() == 1
