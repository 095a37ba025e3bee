"""Static lints on hand-built schemas: each rule fires where it should and only there."""

from __future__ import annotations

import json

import pytest

from gendoc.audit import (
    RULES,
    AuditOptions,
    Finding,
    Message,
    ParameterRef,
    Part,
    Severity,
    audit_reference,
)
from gendoc.audit.lints import CHECKS, REFERENCE_CHECKS, lint_reference
from gendoc.audit.report import format_json, format_markdown, format_text
from gendoc.catalogs.i18n import translations
from gendoc.errors import UsageError
from gendoc.model.element_types import holds_float
from gendoc.model.reference import (
    Differentiability,
    Option,
    Parameter,
    Reference,
    Schema,
    TypeConstraint,
    schema_sort_key,
)

D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
U = Differentiability.UNDEFINED
FLOATS = TypeConstraint("T", ("tensor(float)", "tensor(double)"), "")
INTS = TypeConstraint("I", ("tensor(int32)", "tensor(int64)"), "")


def param(name: str, tag: Differentiability, type_str: str = "T") -> Parameter:
    return Parameter(name, type_str, "", Option.SINGLE, tag)


def schema(
    name: str,
    inputs: list[Parameter],
    outputs: list[Parameter],
    *,
    version: int = 1,
    domain: str = "",
    constraints: tuple[TypeConstraint, ...] = (FLOATS, INTS),
) -> Schema:
    return Schema(
        domain=domain,
        name=name,
        since_version=version,
        inputs=tuple(inputs),
        outputs=tuple(outputs),
        type_constraints=constraints,
    )


def reference(*schemas: Schema) -> Reference:
    return Reference("test", tuple(sorted(schemas, key=schema_sort_key)))


def found(*schemas: Schema) -> list[tuple[str, str, int, str | None]]:
    return [
        (f.rule, f.op, f.version, str(f.parameter) if f.parameter else None)
        for f in lint_reference(reference(*schemas))
    ]


def test_gd001_integer_output_tagged_differentiable_is_an_error() -> None:
    argmax = schema(
        "ArgMax", [param("data", D)], [param("reduced", D, "tensor(int64)")], version=13
    )
    findings = lint_reference(reference(argmax))
    assert [f for f in findings if f.rule == "GD001"] == [
        Finding(
            "GD001",
            Severity.ERROR,
            "",
            "ArgMax",
            13,
            ParameterRef(Part.OUTPUT, "reduced"),
            Message(
                "tagged differentiable but its types ({types}) hold no floating-point value",
                (("types", "tensor(int64)"),),
            ),
        )
    ]
    text = format_text(
        audit_reference(reference(argmax), AuditOptions(ops=["ArgMax"]))
    ).splitlines()
    assert text[0] == (
        "error GD001 ai.onnx ArgMax-13 output reduced: tagged differentiable but its types "
        "(tensor(int64)) hold no floating-point value"
    )
    assert text[-1] == "1 error, 0 warnings, 0 info"


@pytest.mark.parametrize(
    ("type_str", "flagged"),
    [
        ("I", True),  # a type parameter whose types are all integers
        ("tensor(int64)", True),
        ("seq(tensor(int64))", True),
        ("tensor(bool)", True),
        ("T", False),
        ("tensor(complex64)", False),
        ("tensor(bfloat16)", False),
        ("tensor(float8e4m3fn)", False),
        ("seq(tensor(double))", False),
        ("optional(tensor(float16))", False),
        ("Unknown", False),  # an undeclared type parameter is not judged
    ],
)
def test_gd001_depends_on_the_element_types(type_str: str, flagged: bool) -> None:
    op = schema("Op", [param("X", D, type_str)], [param("Y", D)])
    assert (("GD001", "Op", 1, "input X") in found(op)) is flagged


def test_holds_float_reads_nested_types() -> None:
    assert holds_float(["map(int64, tensor(float))"])
    assert not holds_float(["map(string, tensor(int64))", "seq(tensor(uint8))"])


def test_gd002_and_gd003_need_a_differentiable_partner() -> None:
    no_output = schema("A", [param("X", D)], [param("Y", N)])
    no_input = schema("B", [param("X", N)], [param("Y", D)])
    balanced = schema("C", [param("X", D), param("K", N, "I")], [param("Y", D)])
    nothing = schema("E", [param("X", N)], [param("Y", N)])
    assert found(no_output) == [("GD002", "A", 1, None)]
    assert found(no_input) == [("GD003", "B", 1, None)]
    assert found(balanced) == [] and found(nothing) == []
    message = lint_reference(reference(no_output))[0].message
    assert message == "input X tagged differentiable but every output is non-differentiable (Y)"


def test_gd002_and_gd003_name_the_other_sides_tags_as_tags() -> None:
    """In Chinese the tags of the other side read as Chinese words, also when they differ."""
    mixed = schema("M", [param("X", N), param("W", U), param("Z", N)], [param("Y", D)])
    (finding,) = [f for f in lint_reference(reference(mixed)) if f.rule == "GD003"]
    assert finding.message == (
        "output Y tagged differentiable but no input is: X, Z non-differentiable, W undefined"
    )
    undefined = schema("U", [param("X", D)], [param("Y", U), param("V", U)])
    (finding,) = [f for f in lint_reference(reference(undefined)) if f.rule == "GD002"]
    chinese = translations("zh", None).gettext
    assert finding.text.format(chinese) == "输入 X 标为可微，但所有输出均为未定义（Y, V）"


def test_gd004_flags_partially_tagged_versions_only() -> None:
    partial = schema("P", [param("X", D), param("W", U)], [param("Y", D)])
    untagged = schema("Q", [param("X", U)], [param("Y", U)])
    tagged = schema("R", [param("X", D), param("W", N)], [param("Y", D)])
    assert found(partial) == [("GD004", "P", 1, None)]
    assert lint_reference(reference(partial))[0].message == (
        "partially tagged: W undefined while X, Y tagged"
    )
    assert found(untagged) == [("GD008", "Q", 1, None)]  # all-undefined: GD008, not GD004
    assert found(tagged) == []


def test_gd005_and_gd006_compare_consecutive_versions() -> None:
    versions = [
        schema("F", [param("X", D), param("W", U)], [param("Y", D)], version=1),
        schema("F", [param("X", D), param("W", D)], [param("Y", D)], version=7),
        schema("F", [param("X", D), param("W", N)], [param("Y", D)], version=13),
        schema("F", [param("X", D), param("W", U)], [param("Y", D)], version=18),
    ]
    findings = lint_reference(reference(*versions))
    flips = [
        (f.rule, f.version, str(f.parameter), f.message)
        for f in findings
        if f.rule in ("GD005", "GD006")
    ]
    # Undefined -> differentiable (version 7) is how tags were introduced: not reported.
    assert flips == [
        ("GD006", 18, "input W", "tag dropped: non-differentiable in version 13, undefined now"),
        (
            "GD005",
            13,
            "input W",
            "tag changed from differentiable in version 7 to non-differentiable",
        ),
    ]
    assert {f.severity for f in findings if f.rule == "GD005"} == {Severity.INFO}


def test_gd007_suggests_non_differentiable_for_float_free_undefined_parameters() -> None:
    op = schema("G", [param("X", D), param("indices", U, "I")], [param("Y", D)])
    findings = [f for f in lint_reference(reference(op)) if f.rule == "GD007"]
    assert [(f.parameter, f.severity) for f in findings] == [
        (ParameterRef(Part.INPUT, "indices"), Severity.INFO)
    ]
    assert "non-differentiable is the likely tag" in findings[0].message
    assert found(schema("H", [param("X", U)], [param("Y", U)])) == [("GD008", "H", 1, None)]


def test_every_static_rule_has_a_check_and_a_one_line_title() -> None:
    static = {r.id for r in RULES.values() if not (r.numeric or r.evidence)}
    assert static == set(CHECKS) | set(REFERENCE_CHECKS)
    assert all(r.id.startswith("GD1") == r.numeric for r in RULES.values())
    assert all(r.id.startswith("GD2") == r.evidence for r in RULES.values())
    assert all("\n" not in r.title and r.title for r in RULES.values())


def test_findings_are_sorted_worst_first_and_reproducible() -> None:
    schemas = [
        schema("Z", [param("X", D)], [param("Y", D, "tensor(int64)")]),  # error
        schema("A", [param("X", D), param("W", U)], [param("Y", D)]),  # warning
        schema("M", [param("X", D), param("k", U, "I")], [param("Y", D)]),  # warning + info
    ]
    first = audit_reference(reference(*schemas))
    again = audit_reference(reference(*reversed(schemas)))
    assert [f.severity for f in first.findings] == sorted(
        (f.severity for f in first.findings), key=lambda s: s.rank
    )
    assert [(f.rule, f.op) for f in first.findings] == [
        ("GD001", "Z"),
        ("GD004", "A"),
        ("GD004", "M"),
        ("GD007", "M"),
    ]
    assert format_json(first) == format_json(again)
    assert format_text(first).splitlines()[-1] == "1 error, 2 warnings, 1 info"
    assert first.fails(Severity.ERROR) and first.fails(Severity.WARNING) and not first.fails(None)


def test_fail_on_threshold() -> None:
    warning_only = audit_reference(
        reference(schema("A", [param("X", D), param("W", U)], [param("Y", D)]))
    )
    info_only = audit_reference(reference(schema("M", [param("k", U, "I")], [param("Y", U)])))
    assert warning_only.exit_status(Severity.ERROR) == 0
    assert warning_only.exit_status(Severity.WARNING) == 1
    assert warning_only.exit_status() == 0  # errors only, by default
    assert info_only.exit_status(Severity.WARNING) == 0
    assert info_only.exit_status(Severity.INFO) == 1
    assert info_only.exit_status(None) == 0


def test_scope_selection_and_unknown_names() -> None:
    ref = reference(
        schema("A", [param("X", D)], [param("Y", N)]),
        schema("B", [param("X", D)], [param("Y", N)], domain="com.x"),
    )
    assert {f.op for f in audit_reference(ref, AuditOptions(domains=["ai.onnx"])).findings} == {"A"}
    assert {f.op for f in audit_reference(ref, AuditOptions(domains=["com.x"])).findings} == {"B"}
    assert {f.op for f in audit_reference(ref, AuditOptions(ops=["B"])).findings} == {"B"}
    with pytest.raises(UsageError, match="unknown domain 'nope'"):
        audit_reference(ref, AuditOptions(domains=["nope"]))
    with pytest.raises(UsageError, match="no operator 'B'"):
        audit_reference(ref, AuditOptions(domains=["ai.onnx"], ops=["B"]))


def test_report_dict_and_markdown() -> None:
    report = audit_reference(reference(schema("A", [param("X", D)], [param("Y", N)])))
    data = json.loads(format_json(report))
    assert data["summary"] == {"error": 1, "warning": 0, "info": 0}
    assert data["findings"][0] == {
        "rule": "GD002",
        "severity": "error",
        "domain": "",
        "op": "A",
        "version": 1,
        "parameter": None,
        "part": None,
        "name": None,
        "message": "input X tagged differentiable but every output is non-differentiable (Y)",
        "message_id": "input {inputs} tagged differentiable but every output is {tag} ({outputs})",
        "args": {"inputs": "X", "outputs": "Y", "tag": "non-differentiable"},
        "suggested": None,
        "evidence": [],
    }
    assert data["numeric"] is None
    assert [r["id"] for r in data["rules"]] == list(RULES)
    markdown = format_markdown(report)
    row = (
        '<tr><td><span class="gd-sev gd-sev-error">error</span></td>'
        '<td><a href="#rule-gd002">GD002</a></td><td>ai.onnx A</td><td>1</td><td></td>'
        "<td>input X tagged differentiable but every output is non-differentiable (Y)"
    )
    assert row in markdown
    assert "**1 error, 0 warnings, 0 info**" in markdown


def test_static_audit_of_installed_onnx_is_consistent(reference: Reference) -> None:
    report = audit_reference(reference)
    versions = {(s.domain, s.name, s.since_version) for s in reference.schemas}
    assert report.operator_count == len({(s.domain, s.name) for s in reference.schemas})
    assert all((f.domain, f.op, f.version) in versions for f in report.findings)
    assert all(f.rule in RULES and f.severity is RULES[f.rule].severity for f in report.findings)
    # onnx tags ArgMax's integer output non-differentiable: no GD001 there.
    assert not [f for f in report.findings if f.op == "ArgMax" and f.rule == "GD001"]


def test_gd008_flags_versions_whose_float_parameters_are_all_undefined() -> None:
    ints_tagged = schema("K", [param("X", U), param("k", N, "I")], [param("Y", U)])
    one_float_tagged = schema("L", [param("X", D), param("W", U)], [param("Y", D)])
    assert [f for f in found(ints_tagged) if f[0] == "GD008"] == [("GD008", "K", 1, None)]
    assert lint_reference(reference(ints_tagged))[-1].message == (
        "every floating-point parameter is undefined: X, Y"
    )
    assert [f for f in found(one_float_tagged) if f[0] == "GD008"] == []
    float_free = schema("F", [param("k", U, "I")], [param("n", U, "I")])
    assert [f for f in found(float_free) if f[0] == "GD008"] == []


def test_gd009_compares_roles_across_the_recurrent_family() -> None:
    rnn = schema("RNN", [param("X", D), param("initial_h", N)], [param("Y_h", D)], version=14)
    lstm = schema(
        "LSTM",
        [param("X", D), param("initial_h", N), param("initial_c", D)],
        [param("Y_h", D), param("Y_c", D)],
        version=14,
    )
    findings = [f for f in lint_reference(reference(rnn, lstm)) if f.rule == "GD009"]
    by_parameter = {(f.op, str(f.parameter)): f.message for f in findings}
    assert by_parameter == {
        ("LSTM", "input initial_c"): "tagged differentiable, but the same role is tagged "
        "non-differentiable in LSTM-14 initial_h, RNN-14 initial_h",
        ("LSTM", "input initial_h"): "tagged non-differentiable, but the same role is tagged "
        "differentiable in LSTM-14 initial_c",
        ("RNN", "input initial_h"): "tagged non-differentiable, but the same role is tagged "
        "differentiable in LSTM-14 initial_c",
    }
    other_domain = schema("RNN", [param("X", N)], [param("Y_h", D)], domain="custom")
    alone = [f for f in found(lstm) if f[0] == "GD009"]
    assert [f for f in found(other_domain, lstm) if f[0] == "GD009"] == alone  # X not compared


def test_gd010_flags_differentiable_outputs_of_piecewise_constant_operators(
    reference: Reference,
) -> None:
    report = audit_reference(reference, AuditOptions(ops=["Hardmax", "Round", "Floor", "Relu"]))
    gd010 = [(f.op, f.version, str(f.parameter)) for f in report.findings if f.rule == "GD010"]
    # onnx tags Hardmax-13 differentiable; Round and Floor are tagged non-differentiable.
    assert gd010 == [("Hardmax", 13, "output output")]
    assert not [f for f in audit_reference(reference).findings if f.rule == "GD009"]
