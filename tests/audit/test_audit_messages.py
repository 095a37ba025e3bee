"""Translatable audit messages, the typed entry point and the enums in the JSON report.

The message templates are found the way a translator's tools find them:
with Babel's extractor and the ``N_`` keyword, over the source files.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

import gendoc.audit
from gendoc.audit import (
    RULES,
    AuditOptions,
    AuditReport,
    Finding,
    NumericCase,
    PairClass,
    Part,
    Reason,
    Severity,
    audit,
)
from gendoc.audit.messages import Message, placeholders, say
from gendoc.audit.report import format_json, format_markdown, format_text
from gendoc.model.reference import (
    Differentiability,
    Option,
    Parameter,
    Reference,
    Schema,
    TypeConstraint,
    schema_sort_key,
)
from tests.custom_schemas import audit_impl
from tests.custom_schemas.audit_impl import audit_cases

AUDIT = Path(gendoc.audit.__file__).parent
FOLDERS = (AUDIT, AUDIT.parent / "evidence")
"""The audit and the evidence stage, whose numeric probe reports through the audit."""
# The functions that make a message from a template and keyword arguments, and the
# position of the template among their arguments.
BUILDERS = {"say": 0, "cause": 0, "_finding": 3}


def extracted() -> dict[str, set[str]]:
    """Every ``N_`` template under gendoc/audit and gendoc/evidence, by file name, as
    ``pybabel extract -k N_``."""
    found: dict[str, set[str]] = {}
    for folder in FOLDERS:
        for filename, _, template, _, _ in extract_from_dir(
            str(folder), method_map=[("*.py", "python")], keywords={"N_": None}
        ):
            found.setdefault(Path(filename).name, set()).add(template)
    return found


def _templates(node: ast.expr) -> set[str] | None:
    """The templates an argument can be: ``N_("...")``, ``Reason.X`` or a choice of them."""
    if isinstance(node, ast.IfExp):
        body, orelse = _templates(node.body), _templates(node.orelse)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
        return {ast.literal_eval(node.args[0])}
    if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "Reason":
        return {Reason[node.attr].template}
    return None


def call_sites() -> list[tuple[str, int, str, frozenset[str]]]:
    """(file, line, template, keyword names) of every builder call with a literal template."""
    sites = []
    for path in sorted(p for folder in FOLDERS for p in folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            position = BUILDERS.get(node.func.id)
            if position is None or len(node.args) <= position:
                continue
            templates = _templates(node.args[position])
            if templates is None or any(k.arg is None for k in node.keywords):
                continue  # a template passed on, or arguments spread: checked at run time
            names = frozenset(k.arg for k in node.keywords if k.arg)
            sites += [(path.name, node.lineno, t, names) for t in templates]
    return sites


def test_every_literal_call_passes_exactly_the_placeholders_of_its_template() -> None:
    sites = call_sites()
    assert len(sites) > 30  # the walk found the builders
    wrong = [(f, line, t, sorted(n)) for f, line, t, n in sites if placeholders(t) != n]
    assert wrong == []


def _finding_templates() -> set[str]:
    files = extracted()
    return files["lints.py"] | files["judge.py"]


def _every_finding() -> list[Finding]:
    """Findings of every static and numeric template: one and several test cases each."""
    t = TypeConstraint("T", ("tensor(float)",), "")
    x = Parameter("X", "T", "", Option.SINGLE, Differentiability.DIFFERENTIABLE)
    h = Parameter("initial_h", "T", "", Option.OPTIONAL, Differentiability.NON_DIFFERENTIABLE)
    c = Parameter("initial_c", "T", "", Option.OPTIONAL, Differentiability.DIFFERENTIABLE)
    u = Parameter("U", "T", "", Option.SINGLE, Differentiability.UNDEFINED)
    alone = [
        Schema(domain="t", name="MixedOutputs", since_version=1, inputs=(x,), outputs=(h, u),
               type_constraints=(t,)),  # GD002, the other side non-differentiable and undefined
        Schema(domain="t", name="MixedInputs", since_version=1, inputs=(h, u), outputs=(x,),
               type_constraints=(t,)),  # GD003, the same
        Schema(domain="t", name="NoOutput", since_version=1, inputs=(x,), outputs=(),
               type_constraints=(t,)),
        Schema(domain="t", name="NoInput", since_version=1, inputs=(), outputs=(x,),
               type_constraints=(t,)),
        Schema(domain="", name="Round", since_version=1, inputs=(x,), outputs=(x,),
               type_constraints=(t,)),  # GD010
        Schema(domain="", name="GRU", since_version=1, inputs=(x, h), outputs=(x,),
               type_constraints=(t,)),
        Schema(domain="", name="LSTM", since_version=1, inputs=(x, h, c), outputs=(x,),
               type_constraints=(t,)),  # GD009: initial_c against initial_h
    ]  # fmt: skip
    lonely = audit(Reference("test", tuple(sorted(alone, key=schema_sort_key))))
    once = audit(audit_impl.reference(), AuditOptions(numeric=True, jobs=1), cases=audit_cases())
    twice = [NumericCase(f"{c.name}_again", c.model, c.inputs, c.new_ops) for c in audit_cases()]
    again = audit(
        audit_impl.reference(), AuditOptions(numeric=True, jobs=1), cases=[*audit_cases(), *twice]
    )
    return [*lonely.findings, *once.findings, *again.findings]


def test_every_finding_template_is_raised_and_formats_with_its_arguments() -> None:
    findings = _every_finding()
    assert {f.message_id for f in findings} == _finding_templates()
    for finding in findings:
        assert placeholders(finding.message_id) == set(finding.args)
        assert finding.message == finding.message_id.format(**finding.args)
        assert "{" not in finding.message


def test_a_misspelled_placeholder_fails_where_the_message_is_made() -> None:
    with pytest.raises(ValueError, match=r"placeholders \['before', 'new', 'old'\]"):
        say("tag changed from {old} in version {before} to {new}", old="a", befor=1, new="b")
    message = say("tag changed from {old} in version {before} to {new}", old="a", before=1, new="b")
    assert message.text == "tag changed from a in version 1 to b"
    assert message.format({message.id: "标签在版本 {before} 中从 {old} 改为 {new}"}.get) == (
        "标签在版本 1 中从 a 改为 b"
    )


def test_rule_titles_and_reasons_are_marked_for_translation() -> None:
    files = extracted()
    assert {r.title for r in RULES.values()} == files["findings.py"]
    assert {r.template for r in Reason} <= files["numeric.py"]
    assert all(not placeholders(r.title) for r in RULES.values())


def test_typed_entry_point_and_exit_status() -> None:
    report = audit(
        audit_impl.reference(),
        AuditOptions(domains=("test.audit",), ops=("Double", "Vanish"), numeric=True, jobs=1),
        progress=False,
        cases=audit_cases(),
    )
    assert isinstance(report, AuditReport)
    assert {(f.rule, f.op) for f in report.findings} == {
        ("GD003", "Double"),  # static: the output is differentiable, the input is not
        ("GD101", "Double"),
        ("GD102", "Vanish"),
    }
    assert report.exit_status() == 1  # GD003 is an error
    assert report.exit_status(Severity.WARNING) == 1
    assert report.exit_status(None) == 0
    vanish = audit(
        audit_impl.reference(), AuditOptions(ops=["Vanish"], numeric=True), cases=audit_cases()
    )
    assert [f.severity for f in vanish.findings] == [Severity.WARNING, Severity.WARNING]
    assert (vanish.exit_status(Severity.ERROR), vanish.exit_status(Severity.WARNING)) == (0, 1)


def test_json_carries_enum_values_and_translatable_messages() -> None:
    report = audit(audit_impl.reference(), AuditOptions(numeric=True, jobs=1), cases=audit_cases())
    data = json.loads(format_json(report))
    for finding in data["findings"]:
        assert Severity(finding["severity"]) and finding["rule"] in RULES
        if finding["parameter"] is not None:
            assert finding["parameter"] == f"{Part(finding['part']).value} {finding['name']}"
        assert finding["message"] == finding["message_id"].format(**finding["args"])
    gd101 = next(f for f in data["findings"] if f["rule"] == "GD101")
    assert (gd101["part"], gd101["name"]) == ("input", "X")
    assert gd101["args"] == {
        "cases": 1, "input": "X", "nonzero": 5, "output": "Y", "probes": 5, "slope": 2.0,
    }  # fmt: skip
    pairs = [p for o in data["numeric"]["operators"] for p in o["pairs"]]
    assert {PairClass(p["class"]) for p in pairs} == {
        PairClass.NONZERO,
        PairClass.ZERO,
        PairClass.NOT_FLOAT,
    }
    index = next(p for o in data["numeric"]["operators"] if o["op"] == "Index" for p in o["pairs"])
    assert (index["class"], index["reason"]) == ("not-float", "non-float-output")
    assert (index["detail"], index["detail_id"], index["detail_args"]) == (
        "output is int64",
        "output is {dtype}",
        {"dtype": "int64"},
    )
    (broken,) = data["numeric"]["not_evaluated"]
    assert (broken["op"], broken["reason"]) == ("Broken", "evaluation-failed")
    assert broken["message_id"] == "evaluation failed: {error}"
    assert broken["message"] == "evaluation failed: " + broken["args"]["error"]
    assert Message(broken["message_id"], tuple(broken["args"].items())).text == broken["message"]


def test_tags_inside_a_translated_message_are_translated_too() -> None:
    """A tag in a Chinese finding reads as the catalog's word for it; JSON keeps the tag's value."""
    from gendoc.catalogs.i18n import Term, translations

    zh = translations("zh").gettext
    with_tags = [
        f for f in _every_finding() if any(isinstance(v, Term) for v in f.text.args.values())
    ]
    assert {f.rule for f in with_tags} >= {"GD005", "GD006"}
    for finding in with_tags:
        text = finding.text.format(zh)
        tags = [v for v in finding.text.args.values() if isinstance(v, Term)]
        for tag in tags:
            assert zh(tag) != tag and zh(tag) in text, (finding.rule, text)
        assert "differentiable" not in text and "undefined" not in text, (finding.rule, text)
        assert set(tags) <= set(finding.text.to_dict()["args"].values())


def test_schema_names_print_their_control_and_bidi_characters_as_visible_escapes() -> None:
    attack = "\x1b]52;c;ZXZpbA==\x07\x9b2J\u202e"  # OSC 52 clipboard write, C1 CSI, bidi
    shown = r"\x1b]52;c;ZXZpbA==\x07\x9b2J\u202e"
    param = Parameter(f"X{attack}", "T", "A parameter.", Option.SINGLE, Differentiability.UNDEFINED)
    schema = Schema(
        domain=f"com.x{attack}",
        name=f"Op{attack}",
        since_version=1,
        inputs=(param,),
        outputs=(param,),
        type_constraints=(TypeConstraint("T", ("tensor(float)",), ""),),
    )
    report = audit(Reference("1.0", (schema,)), AuditOptions())
    active = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    for text in (format_text(report), format_markdown(report), format_json(report)):
        assert not active.search(text)
    assert format_text(report).splitlines()[0] == (
        f"info GD008 com.x{shown} Op{shown}-1: every floating-point parameter is undefined: "
        f"X{shown}, X{shown}"
    )
    assert json.loads(format_json(report))["findings"][0]["op"] == f"Op{attack}"
