"""``gendoc audit`` end to end, in child processes (schema registration is process-wide)."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import run_gendoc

CUSTOM = ("--schemas", "tests.custom_schemas.audit_ops", "--domain", "test.audit")
LINE = re.compile(r"^(error|warning|info) GD\d{3} \S+ \S+-\d+( (input|output) \S+)?: .+$")
SUMMARY = re.compile(r"^\d+ errors?, \d+ warnings?, \d+ info$")


def test_static_audit_of_installed_onnx() -> None:
    result = run_gendoc("audit")
    lines = result.stdout.splitlines()
    assert SUMMARY.match(lines[-1]), lines[-1]
    assert all(LINE.match(line) for line in lines[:-1]), [x for x in lines if not LINE.match(x)]
    errors = sum(line.startswith("error ") for line in lines)
    assert result.returncode == (1 if errors else 0), result.stderr
    assert lines[-1].startswith(f"{errors} error")
    assert result.stderr == ""
    domains = {line.split()[2] for line in lines[:-1]}
    assert {"ai.onnx", "ai.onnx.ml"} <= domains  # every domain is audited by default
    assert run_gendoc("audit", "--fail-on", "never").returncode == 0


def test_static_lints_on_registered_operators() -> None:
    result = run_gendoc("audit", *CUSTOM)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "error GD003 test.audit Double-1: output Y tagged differentiable but every input is "
        "non-differentiable (X)",
        "error GD002 test.audit Half-1: input X tagged differentiable but every output is "
        "undefined (Y)",
        "error GD001 test.audit Index-1 output Y: tagged differentiable but its types "
        "(tensor(int64)) hold no floating-point value",
        "warning GD004 test.audit Flip-3: partially tagged: W undefined while X, Y tagged",
        "warning GD006 test.audit Flip-3 input W: tag dropped: non-differentiable in version 2, "
        "undefined now",
        "warning GD004 test.audit Half-1: partially tagged: Y undefined while X tagged",
        "warning GD004 test.audit Mask-1: partially tagged: M undefined while X, Y tagged",
        "info GD005 test.audit Flip-2 input W: tag changed from differentiable in version 1 "
        "to non-differentiable",
        "info GD007 test.audit Mask-1 input M: undefined, but its types (tensor(bool)) hold no "
        "floating-point value: non-differentiable is the likely tag",
        "info GD008 test.audit Scale-1: every floating-point parameter is undefined: X, S, Y",
        "info GD008 test.audit Step-1: every floating-point parameter is undefined: X, Y",
        "3 errors, 4 warnings, 4 info",
    ]


@pytest.mark.parametrize(
    ("ops", "fail_on", "status"),
    [
        (["Flip"], "error", 0),  # warnings and info only
        (["Flip"], "warning", 1),
        (["Mask", "Flip"], "never", 0),
        (["Index"], "error", 1),
    ],
)
def test_fail_on_sets_the_exit_status(ops: list[str], fail_on: str, status: int) -> None:
    selection = [arg for op in ops for arg in ("--op", op)]
    result = run_gendoc("audit", *CUSTOM, *selection, "--fail-on", fail_on)
    assert result.returncode == status, result.stdout + result.stderr


def test_numeric_json_reports_the_mis_tagged_operators_the_same_in_parallel() -> None:
    args = ("audit", *CUSTOM, "--numeric", "--format", "json", "--fail-on", "never")
    serial = run_gendoc(*args, "--jobs", "1")
    parallel = run_gendoc(*args, "--jobs", "2")
    assert serial.returncode == 0, serial.stderr
    assert parallel.stdout == serial.stdout
    assert serial.stderr == ""  # no progress bar when stderr is not a terminal
    data = json.loads(serial.stdout)
    rules = {(f["rule"], f["op"], f["parameter"]) for f in data["findings"]}
    assert ("GD101", "Double", "input X") in rules
    assert ("GD102", "Vanish", "output Y") in rules
    assert ("GD001", "Index", "output Y") in rules
    numeric = data["numeric"]
    assert "evidence, not proof" in numeric["note"]
    assert numeric["coverage"]["operators_with_test_data"] == 6
    assert numeric["coverage"]["operators_evaluated"] == 5
    classes = {
        (o["op"], p["input"], p["output"]): p["class"]
        for o in numeric["operators"]
        for p in o["pairs"]
    }
    assert classes == {
        ("Double", "X", "Y"): "nonzero",
        ("Vanish", "X", "Y"): "zero",
        ("Index", "X", "Y"): "not-float",
        ("Step", "X", "Y"): "zero",
        ("Scale", "X", "Y"): "nonzero",
        ("Scale", "S", "Y"): "nonzero",
    }
    assert numeric["not_evaluated"][0]["op"] == "Broken"


def test_markdown_has_findings_rules_and_evidence() -> None:
    result = run_gendoc("audit", *CUSTOM, "--numeric", "--format", "markdown", "--jobs", "1")
    text = result.stdout
    assert text.startswith("# Tag audit\n")
    assert "**3 errors, 7 warnings, 9 info**" in text
    assert (
        '<a href="#rule-gd101">GD101</a></td><td>test.audit Double</td><td>1</td>'
        "<td>input <code>X</code></td><td>tagged non-differentiable, but d(Y)/d(X)"
    ) in text
    assert "| test.audit Vanish-1 | X | Y | zero | zero at all 5 probes |" in text
    assert "## Numeric evidence" in text and "evidence, not proof" in text


@pytest.mark.slow
def test_numeric_on_real_onnx_operators() -> None:
    result = run_gendoc(
        "audit", "--numeric", "--op", "Add", "--op", "ArgMax", "--op", "Reshape",
        "--format", "json", "--jobs", "2",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    numeric = data["numeric"]
    assert numeric["coverage"]["operators_with_test_data"] == 3
    assert numeric["coverage"]["operators_evaluated"] == 3
    latest = {}
    for entry in numeric["operators"]:
        for pair in entry["pairs"]:
            latest[(entry["op"], pair["input"], pair["output"])] = pair["class"]
    assert latest[("Add", "A", "C")] == latest[("Add", "B", "C")] == "nonzero"
    assert latest[("ArgMax", "data", "reduced")] == "not-float"
    assert latest[("Reshape", "data", "reshaped")] == "nonzero"
    assert latest[("Reshape", "shape", "reshaped")] == "not-float"
    # The tags of these three agree with the evidence.
    assert not [f for f in data["findings"] if f["rule"].startswith("GD1")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domain", "com.nowhere"], "unknown domain 'com.nowhere'"),
        (["--op", "NoSuchOp"], "no operator 'NoSuchOp'"),
        (["--jobs", "-1"], "worker processes (jobs) must be 0 or more, not -1"),
        (["--max-seconds", "0", "--numeric"], "time budget (max_seconds) must be positive, not 0"),
        (["--format", "yaml"], "invalid choice"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    result = run_gendoc("audit", *args)
    assert result.returncode == 2
    assert result.stderr.startswith("gendoc: error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr
