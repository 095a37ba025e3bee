"""Diff: the semantic comparison on hand-built models, the formats, and the command end to end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import onnx
import pytest

from gendoc.cli import main
from gendoc.model.compare import Change, DiffReport, FailOn, Kind, Side, compare
from gendoc.model.reference import (
    Attribute,
    Differentiability,
    Option,
    Parameter,
    Reference,
    Schema,
    TypeConstraint,
)
from gendoc.present.change_messages import change_message
from gendoc.present.diff_report import format_diff
from gendoc.present.display import code_span
from tests.helpers import run_gendoc

D = Differentiability
UNDEFINED, DIFF, NON_DIFF = D.UNDEFINED, D.DIFFERENTIABLE, D.NON_DIFFERENTIABLE
FLOATS = TypeConstraint("T", ("tensor(float)", "tensor(double)"), "")


def param(
    name: str, tag: Differentiability = DIFF, option: Option = Option.SINGLE, type_str: str = "T"
) -> Parameter:
    return Parameter(name, type_str, "A parameter.", option, tag)


def schema(
    name: str,
    version: int,
    *,
    domain: str = "",
    inputs: tuple[Parameter, ...] = (param("X"),),
    outputs: tuple[Parameter, ...] = (param("Y"),),
    attributes: tuple[Attribute, ...] = (),
    type_constraints: tuple[TypeConstraint, ...] = (FLOATS,),
    deprecated: bool = False,
) -> Schema:
    return Schema(
        domain=domain,
        name=name,
        since_version=version,
        deprecated=deprecated,
        inputs=inputs,
        outputs=outputs,
        attributes=attributes,
        type_constraints=type_constraints,
    )


def ref(*schemas: Schema) -> Reference:
    return Reference(
        "1.0", tuple(sorted(schemas, key=lambda s: (s.domain, s.name, s.since_version)))
    )


def format_markdown(changes: list[Change], old: Side, new: Side) -> str:
    return format_diff(DiffReport(old, new, tuple(changes)), "markdown")


def format_github(changes: list[Change], old: Side, new: Side, fail_on: str) -> str:
    return format_diff(DiffReport(old, new, tuple(changes)), "github", FailOn(fail_on))


def format_json(changes: list[Change], old: Side, new: Side) -> str:
    return format_diff(DiffReport(old, new, tuple(changes)), "json")


def exit_status(changes: list[Change], fail_on: str) -> int:
    return DiffReport(Side("a", "1"), Side("b", "1"), tuple(changes)).exit_status(FailOn(fail_on))


def messages(old: Reference, new: Reference) -> list[str]:
    return [change_message(c) for c in compare(old, new)]


def reshape(shape: Differentiability) -> Schema:
    return schema(
        "Reshape", 5, inputs=(param("data"), param("shape", shape, type_str="tensor(int64)"))
    )


# --- comparison ----------------------------------------------------------------------------


def test_identical_references_have_no_changes() -> None:
    assert compare(ref(reshape(UNDEFINED)), ref(reshape(UNDEFINED))) == []


def test_tag_change_names_the_operator_version_and_both_tags() -> None:
    changes = compare(ref(reshape(UNDEFINED)), ref(reshape(NON_DIFF)))
    assert changes == [
        Change(
            Kind.TAG_CHANGED,
            "",
            "Reshape",
            5,
            part="input",
            name="shape",
            old="undefined",
            new="non-differentiable",
        )
    ]
    assert change_message(changes[0]) == "Reshape-5 input shape: undefined -> non-differentiable"


@pytest.mark.parametrize(
    ("before", "after"),
    [(UNDEFINED, DIFF), (DIFF, UNDEFINED), (NON_DIFF, DIFF), (DIFF, NON_DIFF)],
)
def test_tag_changes_are_reported_in_every_direction(
    before: Differentiability, after: Differentiability
) -> None:
    old = ref(schema("Relu", 14, outputs=(param("Y", before),)))
    new = ref(schema("Relu", 14, outputs=(param("Y", after),)))
    assert messages(old, new) == [f"Relu-14 output Y: {before.value} -> {after.value}"]


def test_custom_domain_is_part_of_the_name() -> None:
    old = ref(schema("Foo", 2, domain="com.example", inputs=(param("X", UNDEFINED),)))
    new = ref(schema("Foo", 2, domain="com.example", inputs=(param("X", DIFF),)))
    assert messages(old, new) == ["com.example.Foo-2 input X: undefined -> differentiable"]


def test_tag_fixed_in_an_old_version_is_found() -> None:
    old = ref(schema("Foo", 1, inputs=(param("X", UNDEFINED),)), schema("Foo", 7))
    new = ref(schema("Foo", 1, inputs=(param("X", DIFF),)), schema("Foo", 7))
    assert messages(old, new) == ["Foo-1 input X: undefined -> differentiable"]


def test_operators_added_and_removed() -> None:
    old = ref(schema("Gone", 1), schema("Gone", 3), schema("Kept", 1))
    new = ref(schema("Kept", 1), schema("Fresh", 4, domain="com.example"))
    assert messages(old, new) == [
        "Gone removed (versions 1, 3)",
        "com.example.Fresh added (version 4)",
    ]
    added = compare(old, new)[1]
    assert (added.kind, added.versions) == (Kind.OPERATOR_ADDED, (4,))


def test_versions_added_removed_and_deprecated() -> None:
    old = ref(schema("Foo", 1), schema("Foo", 3), schema("Foo", 5))
    new = ref(schema("Foo", 1, deprecated=True), schema("Foo", 5), schema("Foo", 6))
    assert messages(old, new) == [
        "Foo-1 deprecated",
        "Foo-3 removed",
        "Foo-6 added",
    ]
    assert messages(new, old) == [
        "Foo-1 no longer deprecated",
        "Foo-3 added",
        "Foo-6 removed",
    ]


def test_new_latest_version_is_compared_with_the_old_latest() -> None:
    old = ref(schema("Foo", 1))
    new = ref(
        schema("Foo", 1),
        schema("Foo", 2, inputs=(param("X", UNDEFINED), param("B", NON_DIFF, Option.OPTIONAL))),
    )
    changes = compare(old, new)
    assert [change_message(c) for c in changes] == [
        "Foo-2 added",
        "Foo-2 input X: differentiable -> undefined (compared with Foo-1)",
        "Foo-2 input B added: optional T, non-differentiable (compared with Foo-1)",
        "Foo-2 text: 1 paragraph changed (compared with Foo-1)",  # B's description
    ]
    assert {c.compared_with for c in changes[1:]} == {1}


def test_rename_at_the_same_position_keeps_comparing_the_tag() -> None:
    old = ref(schema("Foo", 1, inputs=(param("X"), param("axes", UNDEFINED))))
    new = ref(schema("Foo", 1, inputs=(param("X"), param("axis", NON_DIFF))))
    assert messages(old, new) == [
        "Foo-1 input axes renamed to axis",
        "Foo-1 input axis: undefined -> non-differentiable",
    ]


def test_a_different_parameter_at_the_same_position_is_not_a_rename() -> None:
    old = ref(schema("Foo", 1, inputs=(param("X"), param("axes", type_str="tensor(int64)"))))
    new = ref(schema("Foo", 1, inputs=(param("X"), param("bias"))))
    assert messages(old, new) == [
        "Foo-1 input axes removed",
        "Foo-1 input bias added: T, differentiable",
    ]


def test_reordered_option_and_type_changes() -> None:
    old = ref(schema("Foo", 1, inputs=(param("A"), param("B"))))
    new = ref(
        schema("Foo", 1, inputs=(param("B", option=Option.OPTIONAL), param("A", type_str="T1")))
    )
    assert messages(old, new) == [
        "Foo-1 input B option: single -> optional",
        "Foo-1 input A type: T -> T1",
        "Foo-1 inputs reordered: A, B -> B, A",
    ]


def test_attribute_changes() -> None:
    old = ref(
        schema(
            "Foo",
            1,
            attributes=(
                Attribute("alpha", "float", "", required=False, default="1.0"),
                Attribute("gone", "int", "", required=True),
            ),
        )
    )
    new = ref(
        schema(
            "Foo",
            1,
            attributes=(
                Attribute("alpha", "float", "", required=False, default="0.5"),
                Attribute("mode", "string", "", required=False),
            ),
        )
    )
    assert messages(old, new) == [
        "Foo-1 attribute alpha: float, default 1.0 -> float, default 0.5",
        "Foo-1 attribute gone removed",
        "Foo-1 attribute mode added: string, optional",
    ]


def test_type_constraint_changes() -> None:
    old = ref(
        schema("Foo", 1, type_constraints=(FLOATS, TypeConstraint("I", ("tensor(int64)",), "")))
    )
    new = ref(
        schema(
            "Foo",
            1,
            type_constraints=(
                TypeConstraint("T", ("tensor(float)", "tensor(bfloat16)"), ""),
                TypeConstraint("B", ("tensor(bool)",), ""),
            ),
        )
    )
    changes = compare(old, new)
    assert [change_message(c) for c in changes] == [
        "Foo-1 type constraint T: added tensor(bfloat16); removed tensor(double)",
        "Foo-1 type constraint I removed",
        "Foo-1 type constraint B added: tensor(bool)",
    ]
    assert (changes[0].added, changes[0].removed) == (("tensor(bfloat16)",), ("tensor(double)",))


def test_a_reworded_description_is_a_text_change_with_its_word_diff() -> None:
    old = ref(schema("Foo", 1))
    new_input = Parameter("X", "T", "A parameter, reworded.", Option.SINGLE, DIFF)
    (change,) = compare(old, ref(schema("Foo", 1, inputs=(new_input,))))
    assert change_message(change) == "Foo-1 text: 1 paragraph changed"
    assert change.word_diff() == "input X: A [-parameter.-] {+parameter, reworded.+}"


def test_rewrapping_a_paragraph_is_not_a_change() -> None:
    old = Schema("", "Foo", 1, doc="One two\nthree.\n\nFour.")
    new = Schema("", "Foo", 1, doc="  One  two three.\n\n\nFour.  ")
    assert compare(ref(old), ref(new)) == []


def test_text_change_counts_paragraphs_and_shortens_the_unchanged_words() -> None:
    long = " ".join(f"w{i}" for i in range(40))
    old = Schema("", "Foo", 1, doc=f"{long} old end.\n\nKept.\n\nGone.")
    new = Schema("", "Foo", 1, doc=f"{long} new end.\n\nKept.\n\nAdded.\n\nAlso added.")
    (change,) = compare(ref(old), ref(new))
    assert change.paragraphs == 3  # the first rewritten, "Gone." -> two new paragraphs
    tail = " ".join(f"w{i}" for i in range(32, 40))
    assert change.word_diff() == (
        f"… {tail} [-old-] {{+new+}} end.\n\n[-Gone.-]\n\n{{+Added.+}}\n\n{{+Also added.+}}"
    )  # "Gone." and "Added." have no word in common: one removed, one added
    assert change.word_diff(max_chars=20) == "… w32 w33 w34 w35 … (77 more characters)"  # of 94


def test_a_reworded_paragraph_is_paired_with_its_rewording_past_inserted_ones() -> None:
    old = Schema("", "Foo", 1, doc="The number of samples.")
    new = Schema("", "Foo", 1, doc="New intro.\n\nA scalar, the number of samples.")
    (change,) = compare(ref(old), ref(new))
    assert change.paragraphs == 2
    assert change.word_diff() == "{+New intro.+}\n\n[-The-] {+A scalar, the+} number of samples."


# --- formats -------------------------------------------------------------------------------

OLD_SIDE = Side("old.json", "1.16.0")
NEW_SIDE = Side("new.json", "1.17.0")


def _mixed_changes() -> list[Change]:
    old = ref(
        schema("Zeta", 1, domain="com.example", inputs=(param("X", UNDEFINED),)),
        schema("Abs", 6),
        schema("Reshape", 5, inputs=(param("data"), param("shape", UNDEFINED))),
    )
    new = ref(
        schema("Zeta", 1, domain="com.example", inputs=(param("X", DIFF),)),
        schema("Abs", 6),
        schema("Abs", 13),
        schema("Reshape", 5, inputs=(param("data"), param("shape", NON_DIFF))),
    )
    return compare(old, new)


def test_markdown_lists_tag_changes_first_grouped_by_domain() -> None:
    text = format_markdown(_mixed_changes(), OLD_SIDE, NEW_SIDE)
    assert text.endswith("added\n")
    assert text.splitlines() == [
        "## ONNX operator changes",
        "",
        "From `old.json` (onnx 1.16.0) to `new.json` (onnx 1.17.0): 3 changes in 3 operators, "
        "including 2 differentiability tag changes.",
        "",
        "### Differentiability tag changes",
        "",
        "#### ai.onnx",
        "",
        "- `Reshape-5` input `shape`: undefined -> non-differentiable",
        "",
        "#### com.example",
        "",
        "- `com.example.Zeta-1` input `X`: undefined -> differentiable",
        "",
        "### Other changes",
        "",
        "#### ai.onnx",
        "",
        "- `Abs-13` added",
    ]


def test_no_differences_is_one_line_in_markdown_and_github() -> None:
    expected = "No differences between old.json (onnx 1.16.0) and new.json (onnx 1.17.0).\n"
    assert format_github([], OLD_SIDE, NEW_SIDE, "any") == expected
    assert format_markdown([], OLD_SIDE, NEW_SIDE) == (
        "No differences between `old.json` (onnx 1.16.0) and `new.json` (onnx 1.17.0).\n"
    )


def test_json_has_every_field_and_the_message() -> None:
    data = json.loads(format_json(_mixed_changes(), OLD_SIDE, NEW_SIDE))
    assert data["old"] == {"source": "old.json", "onnx_version": "1.16.0"}
    assert data["summary"] == {"changes": 3, "tag_changes": 2}
    reshape_change = next(c for c in data["changes"] if c["operator"] == "Reshape")
    assert reshape_change == {
        "kind": "tag-changed",
        "domain": "",
        "operator": "Reshape",
        "version": 5,
        "compared_with": None,
        "part": "input",
        "name": "shape",
        "old": "undefined",
        "new": "non-differentiable",
        "added": [],
        "removed": [],
        "versions": [],
        "paragraphs": 0,
        "message": "Reshape-5 input shape: undefined -> non-differentiable",
    }
    assert [c["operator"] for c in data["changes"]] == ["Reshape", "Zeta", "Abs"]  # tags first


@pytest.mark.parametrize(
    ("fail_on", "tag_level", "other_level"),
    [("tag-change", "error", "notice"), ("any", "error", "error"), ("never", "warning", "notice")],
)
def test_github_annotation_levels_follow_fail_on(
    fail_on: str, tag_level: str, other_level: str
) -> None:
    lines = format_github(_mixed_changes(), OLD_SIDE, NEW_SIDE, fail_on).splitlines()
    assert lines[:3] == [
        f"::{tag_level} title=Differentiability tag change::"
        "Reshape-5 input shape: undefined -> non-differentiable",
        f"::{tag_level} title=Differentiability tag change::"
        "com.example.Zeta-1 input X: undefined -> differentiable",
        f"::{other_level} title=Operator change::Abs-13 added",
    ]
    assert lines[3].startswith("gendoc diff old.json (onnx 1.16.0) -> new.json (onnx 1.17.0): 3 ")


def test_github_annotations_escape_workflow_command_characters() -> None:
    old = ref(schema("Foo", 1, attributes=(Attribute("a", "string", "", False, "50%\nx"),)))
    new = ref(schema("Foo", 1))
    (line, _) = format_github(compare(new, old), OLD_SIDE, NEW_SIDE, "never").splitlines()
    assert (
        line == "::notice title=Operator change::Foo-1 attribute a added: string, default 50%25%0Ax"
    )


WRAPPERS = ("tensor({})", "seq(tensor({}))", "optional(tensor({}))")
ELEMENTS = ("float", "double", "int8", "int16", "int32", "bool")


def test_long_type_lists_are_compacted_by_shape_and_element_type() -> None:
    added = tuple(w.format(e) for w in WRAPPERS[1:] for e in ELEMENTS[:4])
    change = Change(Kind.TYPE_CONSTRAINT_CHANGED, "", "Foo", 1, part="type constraint",
                    name="V", added=added, removed=("tensor(bool)", "tensor(int8)"))  # fmt: skip
    assert change_message(change) == (
        "Foo-1 type constraint V: added seq(tensor(*)), optional(tensor(*)) for float, double, "
        "int8, int16; removed tensor(bool), tensor(int8)"
    )
    known = frozenset(ELEMENTS)
    assert change_message(change, known_types=known) == (
        "Foo-1 type constraint V: added seq(tensor(*)), optional(tensor(*)) for all element "
        "types but bool, int32; removed tensor(bool), tensor(int8)"
    )
    every = Change(Kind.TYPE_CONSTRAINT_ADDED, "", "Foo", 1, part="type constraint", name="T",
                   added=tuple(f"tensor({e})" for e in ELEMENTS))  # fmt: skip
    assert change_message(every, known_types=known) == (
        "Foo-1 type constraint T added: tensor(*) for all element types"
    )
    assert change_message(every, code_span, known_types=known).endswith(
        "`tensor(*)` for all element types"
    )


def test_annotations_stay_within_what_github_shows_per_level() -> None:
    tags = [Change(Kind.TAG_CHANGED, "", f"Op{i:02}", 1, part="input", name="X",
                   old="undefined", new="differentiable") for i in range(3)]  # fmt: skip
    others = [Change(Kind.VERSION_ADDED, "", f"Op{i:02}", 2) for i in range(25)]
    lines = format_github(others + tags, OLD_SIDE, NEW_SIDE, "never").splitlines()
    assert [line.split("::")[1] for line in lines[:-1]] == [
        *["warning title=Differentiability tag change"] * 3,
        *["notice title=Operator change"] * 9,
        "notice title=More changes",
    ]
    assert lines[12] == (
        "::notice title=More changes::16 more changes are not shown as annotations: "
        "see the job summary, or run gendoc diff."
    )
    assert lines[3].endswith("::Op00-2 added") and lines[11].endswith("::Op08-2 added")
    exactly = format_github(others[:10], OLD_SIDE, NEW_SIDE, "never").splitlines()
    assert len(exactly) == 11 and "More changes" not in "".join(exactly)
    failing = format_github(others + tags, OLD_SIDE, NEW_SIDE, "any").splitlines()
    assert [line.split(" ")[0] for line in failing[:-1]] == ["::error"] * 10
    assert failing[9].startswith("::error title=More changes::19 more changes")


HOSTILE = "@octo-org/admins <!-- hidden --> <img src=x onerror=alert(1)> ``` x\r\n::stop-commands::"


def _hostile_changes() -> list[Change]:
    old = ref(
        schema("Foo", 1, type_constraints=(TypeConstraint(HOSTILE, ("tensor(float)",), ""),)),
        Schema("", "Bar", 1, doc="Plain."),
    )
    new = ref(
        schema(HOSTILE, 1, domain=HOSTILE),
        schema("Foo", 1, inputs=(param(HOSTILE, NON_DIFF), param("Z", type_str=HOSTILE))),
        Schema("", "Bar", 1, doc=f"Plain. {HOSTILE}"),
    )
    return compare(old, new)


def test_markdown_makes_every_schema_string_inert() -> None:
    hostile_side = Side(HOSTILE, HOSTILE)
    text = format_markdown(_hostile_changes(), hostile_side, hostile_side)
    assert "@octo-org" not in text and "@\u200docto-org" in text  # no mention
    assert "<!--" not in text and "<img" not in text  # no comment, no tag
    assert "\r" not in text
    assert not [line for line in text.splitlines() if line.lstrip().startswith("::")]
    assert "<details><summary>Word diff</summary>" in text
    fences = [line.strip() for line in text.splitlines() if line.strip().startswith("```")]
    assert fences == ["````text", "````"] * 2  # longer than any ``` inside: cannot be closed
    empty = format_markdown([], hostile_side, hostile_side)
    assert "@octo-org" not in empty and "<!--" not in empty and empty.count("\n") == 1


def test_github_format_keeps_every_value_on_its_own_command_line() -> None:
    hostile_side = Side(HOSTILE, HOSTILE)
    for changes in (_hostile_changes(), []):
        text = format_github(changes, hostile_side, hostile_side, "never")
        lines = text.splitlines()
        assert "\r" not in text
        assert not [line for line in lines if line.startswith("::stop-commands")]
        assert all(line.startswith(("::notice ", "::warning ", "::error ")) for line in lines[:-1])
        assert "%0D%0A::stop-commands::" in lines[-1]


# A clipboard write (OSC 52), a C1 screen clear, and bidi controls that would show the rest
# of a line reversed.
TERMINAL = "\x1b]52;c;ZXZpbA==\x07\x9b2J\u202e\u2066\u200f\u061c"
SHOWN = r"\x1b]52;c;ZXZpbA==\x07\x9b2J\u202e\u2066\u200f\u061c"
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_control_and_bidi_characters_are_visible_escapes_in_every_format() -> None:
    old = ref(
        schema("Reshape", 5, inputs=(param(f"shape{TERMINAL}", UNDEFINED),)),
        Schema("", "Bar", 1, doc="Plain."),
    )
    new = ref(
        schema("Reshape", 5, inputs=(param(f"shape{TERMINAL}", NON_DIFF),)),
        Schema("", "Bar", 1, doc=f"Plain. {TERMINAL} end"),
    )
    report = DiffReport(
        Side(TERMINAL, TERMINAL), Side(TERMINAL, TERMINAL), tuple(compare(old, new))
    )
    printed = {
        fmt: format_diff(report, fmt, FailOn.TAG_CHANGE) for fmt in ("markdown", "github", "json")
    }
    assert not [fmt for fmt, text in printed.items() if ACTIVE.search(text)]
    tag = "::error title=Differentiability tag change::Reshape-5 input shape"
    assert printed["github"].splitlines()[0] == f"{tag}{SHOWN}: undefined -> non-differentiable"
    assert (
        f"- `Reshape-5` input `shape{SHOWN}`: undefined -> non-differentiable"
        in printed["markdown"]
    )
    assert f"Plain. {{+{SHOWN} end+}}" in printed["markdown"]  # the word diff
    data = json.loads(printed["json"])  # the same data, escaped the JSON way
    assert data["changes"][0]["name"] == f"shape{TERMINAL}"


@pytest.mark.parametrize(
    ("fail_on", "tags_only", "others_only", "none"),
    [("tag-change", 1, 0, 0), ("any", 1, 1, 0), ("never", 0, 0, 0)],
)
def test_exit_status(fail_on: str, tags_only: int, others_only: int, none: int) -> None:
    changes = _mixed_changes()
    tags = [c for c in changes if c.is_tag_change]
    others = [c for c in changes if not c.is_tag_change]
    assert exit_status(tags, fail_on) == tags_only
    assert exit_status(others, fail_on) == others_only
    assert exit_status([], fail_on) == none


def test_code_span_survives_backticks() -> None:
    assert code_span("T") == "`T`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`x") == "`` `x ``"


# --- the command, on snapshots of schemas registered in child processes --------------------

MODULES = ("diff_v1", "diff_v1_tag", "diff_v2")
TAG_LINE = "com.example.Foo-2 input Y: undefined -> non-differentiable"


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("snapshots")
    paths = {}
    for module in MODULES:
        paths[module] = folder / f"{module}.json"
        result = run_gendoc(
            "export", "--schemas", f"tests.custom_schemas.{module}", "-o", str(paths[module])
        )
        assert result.returncode == 0, result.stderr
    return paths


def test_snapshots_differing_by_one_tag_print_exactly_that_change(
    snapshots: dict[str, Path],
) -> None:
    old, new = str(snapshots["diff_v1"]), str(snapshots["diff_v1_tag"])
    markdown = run_gendoc("diff", old, new)
    assert markdown.returncode == 0, markdown.stderr
    items = [line for line in markdown.stdout.splitlines() if line.startswith("- ")]
    assert items == ["- `com.example.Foo-2` input `Y`: undefined -> non-differentiable"]
    github = run_gendoc("diff", old, new, "--format", "github", "--fail-on", "tag-change")
    assert github.returncode == 1
    assert (
        github.stdout.splitlines()[0] == f"::error title=Differentiability tag change::{TAG_LINE}"
    )
    data = json.loads(run_gendoc("diff", old, new, "--format", "json").stdout)
    assert [c["message"] for c in data["changes"]] == [TAG_LINE]


def test_tag_change_and_added_input_between_two_states(snapshots: dict[str, Path]) -> None:
    old, new = str(snapshots["diff_v1"]), str(snapshots["diff_v2"])
    data = json.loads(run_gendoc("diff", old, new, "--format", "json").stdout)
    assert [c["message"] for c in data["changes"]] == [
        TAG_LINE,
        "com.example.Foo-2 input scale added: optional T, non-differentiable",
        "com.example.Foo-2 text: 1 paragraph changed",  # scale's description
    ]
    assert run_gendoc("diff", old, new, "--fail-on", "any").returncode == 1
    assert run_gendoc("diff", old, new, "--fail-on", "never").returncode == 0
    backwards = json.loads(run_gendoc("diff", new, old, "--format", "json").stdout)
    assert [c["message"] for c in backwards["changes"]] == [
        "com.example.Foo-2 input Y: non-differentiable -> undefined",
        "com.example.Foo-2 input scale removed",
        "com.example.Foo-2 text: 1 paragraph changed",
    ]


def test_same_snapshot_says_so_in_one_line(snapshots: dict[str, Path]) -> None:
    path = str(snapshots["diff_v2"])
    result = run_gendoc("diff", path, path, "--fail-on", "any")
    assert result.returncode == 0
    side = f"`{path}` (onnx {onnx.__version__})"
    assert result.stdout == f"No differences between {side} and {side}.\n"


def test_installed_side_uses_the_schema_modules(snapshots: dict[str, Path]) -> None:
    old = str(snapshots["diff_v1"])
    result = run_gendoc(
        "diff", old, "installed", "--schemas", "tests.custom_schemas.diff_v2", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["new"]["source"] == "installed"
    assert len(data["changes"]) == 3 and data["changes"][0]["message"] == TAG_LINE
    without_module = json.loads(run_gendoc("diff", old, "installed", "--format", "json").stdout)
    assert [c["message"] for c in without_module["changes"]] == [
        "com.example.Foo removed (versions 1, 2)"
    ]


def test_schema_modules_with_two_files_warn(snapshots: dict[str, Path]) -> None:
    path = str(snapshots["diff_v1"])
    result = run_gendoc("diff", path, path, "--schemas", "tests.custom_schemas.diff_v2")
    assert result.returncode == 0
    assert result.stderr == (
        "gendoc: warning: --schemas only applies to 'installed'; both sides are snapshot files\n"
    )


def test_an_oversized_snapshot_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys) -> None:
    from gendoc.cli import main
    from gendoc.commands import diff as diff_command
    from gendoc.model.snapshot import dumps

    path = tmp_path / "big.json"
    path.write_text(dumps(ref(schema("Foo", 1))), encoding="utf-8")
    size = path.stat().st_size
    monkeypatch.setattr(diff_command, "MAX_SNAPSHOT_BYTES", size)
    assert main(["diff", str(path), str(path)]) == 0  # at the limit: read
    capsys.readouterr()
    monkeypatch.setattr(diff_command, "MAX_SNAPSHOT_BYTES", size - 1)
    assert main(["diff", str(path), str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"gendoc: error: {path}: {size:,} bytes, more than gendoc diff reads ({size - 1:,})\n"
    )


def test_an_error_line_shows_a_paths_control_characters_as_visible_escapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "x\x1b]0;title\x07\u202e.json"
    assert main(["diff", str(missing), str(missing)]) == 2
    shown = f"{tmp_path}/x\\x1b]0;title\\x07\\u202e.json"
    assert capsys.readouterr().err == f"gendoc: error: snapshot file not found: {shown}\n"
