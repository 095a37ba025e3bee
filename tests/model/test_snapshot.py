"""Snapshots: a faithful, byte-stable JSON copy of the model, and clear errors on bad files."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

import gendoc
from gendoc.cli import main
from gendoc.commands.diff import load_reference
from gendoc.errors import UsageError
from gendoc.model.reference import (
    Attribute,
    Differentiability,
    Example,
    FunctionBody,
    Option,
    Parameter,
    Part,
    Reference,
    Schema,
    SchemaDetails,
    TypeConstraint,
)
from gendoc.model.snapshot import (
    FORMAT_MINOR,
    FORMAT_VERSION,
    SCHEMA_FILE,
    ParameterVerdict,
    SourceVote,
    domain_part,
    dumps,
    json_schema_text,
    snapshot_of,
)
from gendoc.model.snapshot_read import from_data, load_snapshot
from tests.helpers import run_gendoc

V1 = "tests.custom_schemas.diff_v1"


def _sample_reference() -> Reference:
    """A small model that uses every field, including the unusual values."""
    return Reference(
        onnx_version="1.99.0",
        schemas=(
            Schema(
                domain="",
                name="Concat",
                since_version=4,
                doc="Joins tensors — along one axis.",
                attributes=(Attribute("axis", "int", "Which axis.", required=True),),
                inputs=(
                    Parameter(
                        "inputs",
                        "T",
                        "Tensors.",
                        Option.VARIADIC,
                        Differentiability.DIFFERENTIABLE,
                        is_homogeneous=False,
                        min_arity=2,
                    ),
                ),
                outputs=(Parameter("out", "T", "", Option.SINGLE, Differentiability.UNDEFINED),),
                type_constraints=(TypeConstraint("T", ("tensor(float)", "tensor(int8)"), "Any."),),
                min_inputs=1,
                max_inputs=None,
                min_outputs=1,
                max_outputs=1,
            ),
            Schema(
                domain="com.example",
                name="Foo",
                since_version=1,
                deprecated=True,
                experimental=True,
                is_function=True,
                function_versions=(1, 18),
                attributes=(
                    Attribute("alpha", "float", "Factor.", required=False, default="1.0"),
                    Attribute("mode", "string", "", required=False),
                ),
                inputs=(
                    Parameter(
                        "X",
                        "tensor(int64)",
                        "",
                        Option.OPTIONAL,
                        Differentiability.NON_DIFFERENTIABLE,
                    ),
                ),
            ),
        ),
        examples={"Concat": (Example("concat_2d", "node = make_node('Concat')\n\tx = 1"),)},
        samples={"concat": "def concat(*xs):\n    return xs"},
        details={
            ("com.example", "Foo", 1): SchemaDetails(
                has_inference=True,
                source=("onnx/defs/math/defs.cc", 12),
                function_bodies=(FunctionBody((1, 17), '<domain: "">\nFoo (X) => ()'),),
                context_dependent=True,
            )
        },
    )


CONCAT_VERDICTS = {
    ("", "Concat", 4): (
        ParameterVerdict(
            Part.OUTPUT,
            "out",
            Differentiability.DIFFERENTIABLE,
            "strong",
            "GD203",
            (SourceVote("pytorch", "gradient"), SourceVote("onnx-ad", "gradient")),
        ),
    )
}


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def _data(reference: Reference) -> dict:
    return json.loads(dumps(reference))


def test_schema_file_is_generated_from_the_current_dataclasses() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == json_schema_text(), (
        "snapshot.schema.json is out of date: run python -m gendoc.model.snapshot"
    )


def test_schema_file_is_a_valid_draft_2020_12_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_round_trip_keeps_every_field() -> None:
    reference = _sample_reference()
    assert from_data(json.loads(dumps(reference))) == reference


def test_sample_snapshot_follows_the_schema() -> None:
    _validator().validate(_data(_sample_reference()))


def test_installed_onnx_snapshot_follows_the_schema_and_round_trips(reference: Reference) -> None:
    data = json.loads(dumps(reference))
    _validator().validate(data)
    assert data["format_version"] == FORMAT_VERSION
    assert data["format_minor"] == FORMAT_MINOR
    assert data["onnx_version"] == reference.onnx_version
    assert data["gendoc_version"] == gendoc.__version__
    # A snapshot is data: it cannot claim a text is onnx's own and so skip the onnx layout's
    # sanitizer; every text of a build from it is checked.
    assert from_data(data) == dataclasses.replace(reference, onnx_own=())


def test_verdicts_are_written_with_their_schema_and_follow_the_schema() -> None:
    data = _data_with_verdicts()
    _validator().validate(data)
    concat, foo = data["schemas"]
    assert concat["evidence"] == [
        {
            "part": "output",
            "name": "out",
            "suggested": "differentiable",
            "strength": "strong",
            "rule": "GD203",
            "votes": [
                {"source": "pytorch", "verdict": "gradient"},
                {"source": "onnx-ad", "verdict": "gradient"},
            ],
        }
    ]
    assert foo["evidence"] == [] and concat["details"] is None
    assert foo["details"]["source"] == ["onnx/defs/math/defs.cc", 12]


def test_a_domain_part_holds_its_schemas_and_their_examples_alone() -> None:
    whole = snapshot_of(_sample_reference())
    concat = domain_part(whole, "")
    assert [s.name for s in concat.schemas] == ["Concat"]
    assert set(concat.examples) == {"Concat"} and set(concat.samples) == {"concat"}
    foo = domain_part(whole, "com.example")
    assert [s.name for s in foo.schemas] == ["Foo"]
    assert foo.examples == {} and foo.samples == {}
    assert foo.onnx_version == whole.onnx_version


def _data_with_verdicts() -> dict:
    return json.loads(dumps(_sample_reference(), CONCAT_VERDICTS))


def test_a_newer_minor_version_is_read_and_what_it_adds_is_ignored() -> None:
    """The compatibility rule: a minor version only adds optional fields; readers of the same
    major read it, and the published schema accepts it."""
    data = _data_with_verdicts()
    data["format_minor"] = FORMAT_MINOR + 1
    data["schemas"][0]["added_later"] = [{"runtime": "onnxruntime", "supported": True}]
    data["added_later"] = {"anything": 1}
    assert _validator().is_valid(data)
    assert from_data(data) == _sample_reference()


def test_order_does_not_depend_on_the_order_of_the_model() -> None:
    reference = _sample_reference()
    shuffled = replace(
        reference,
        schemas=tuple(
            Schema(**{**s.__dict__, "attributes": tuple(reversed(s.attributes))})
            for s in reversed(reference.schemas)
        ),
    )
    assert dumps(shuffled) == dumps(reference)
    schemas = _data(reference)["schemas"]
    assert [(s["domain"], s["name"]) for s in schemas] == [("", "Concat"), ("com.example", "Foo")]
    assert [a["name"] for a in schemas[1]["attributes"]] == ["alpha", "mode"]


def test_examples_samples_and_details_are_kept_as_data() -> None:
    data = _data(_sample_reference())
    assert data["examples"] == {
        "Concat": [{"summary": "concat_2d", "code": "node = make_node('Concat')\n\tx = 1"}]
    }
    assert data["samples"] == {"concat": "def concat(*xs):\n    return xs"}
    assert data["schemas"][1]["details"]["function_bodies"][0]["opset_versions"] == [1, 17]


def test_load_reference_installed_collects_this_environment(reference: Reference) -> None:
    assert load_reference("installed").schemas == reference.schemas


def test_export_is_byte_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    """Two processes with different hash seeds, one to a file and one to stdout."""
    target = tmp_path / "a.json"
    first = run_gendoc("export", "--schemas", V1, "-o", str(target), env={"PYTHONHASHSEED": "1"})
    second = run_gendoc("export", "--schemas", V1, env={"PYTHONHASHSEED": "2"})
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    data = target.read_bytes()
    assert data == second.stdout.encode("utf-8")
    assert data.endswith(b"}\n")
    foo = [s for s in json.loads(data)["schemas"] if s["domain"] == "com.example"]
    assert [(s["name"], s["since_version"]) for s in foo] == [("Foo", 1), ("Foo", 2)]


# --- unusable files ------------------------------------------------------------------------


def _valid_text() -> str:
    return dumps(_sample_reference())


def _with_version(version: object) -> str:
    data = _data(_sample_reference())
    data["format_version"] = version
    return json.dumps(data)


def _with_bad_tag() -> str:
    data = _data(_sample_reference())
    data["schemas"][0]["inputs"][0]["differentiability"] = "maybe"
    return json.dumps(data)


def _with_duplicate_version() -> str:
    data = _data(_sample_reference())
    data["schemas"].append(data["schemas"][0])
    return json.dumps(data)


def _with_boolean_version_number() -> str:
    data = _data(_sample_reference())
    data["schemas"][1]["since_version"] = True
    return json.dumps(data)


def _with_raw(path: tuple[str | int, ...], raw: str) -> str:
    """The sample snapshot with one value replaced by JSON text that json.dumps cannot make."""
    data = _data(_sample_reference())
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw)


NOT_OBJECTS = (
    f'{{"format": "gendoc-snapshot", "format_version": {FORMAT_VERSION}, '
    '"onnx_version": "1", "schemas": [1]}'
)

BAD_FILES = {
    "truncated": (_valid_text()[: len(_valid_text()) // 2], "truncated"),
    "truncated-inside-a-string": ('{"format": "gendoc-snap', "truncated"),
    "invalid-json": ('{"format": "gendoc-snapshot",, }', "not valid JSON"),
    "empty": ("", "empty"),
    "not-utf8": (b"\xff\xfe{".decode("latin-1"), "not a gendoc snapshot"),
    "json-list": ("[1, 2, 3]", "not a gendoc snapshot"),
    "other-json-object": ('{"name": "package", "version": "1.0"}', "not a gendoc snapshot"),
    "newer-format": (_with_version(FORMAT_VERSION + 1), "upgrade gendoc"),
    "older-format": (_with_version(0), "not supported"),
    "format-version-2": (
        _with_version(2),
        "snapshot format version 2 is not supported (this gendoc reads 3); "
        "export the snapshot again",
    ),
    "format-version-string": (_with_version("1"), "$.format_version: expected `int`, got `str`"),
    "format-version-huge": (_with_version(10**30), "upgrade gendoc"),
    "bad-tag": (
        _with_bad_tag(),
        "$.schemas[0].inputs[0].differentiability: invalid enum value 'maybe'",
    ),
    "duplicate-version": (_with_duplicate_version(), "Concat-4 appears more than once"),
    "schema-not-an-object": (NOT_OBJECTS, "$.schemas[0]: expected `object`, got `int`"),
    "boolean-for-number": (
        _with_boolean_version_number(),
        "$.schemas[1].since_version: expected `int`, got `bool`",
    ),
    "missing-field": (
        _with_raw(("schemas", 0, "inputs"), '[{"name": "x"}]'),
        "$.schemas[0].inputs[0]: object missing required field `type_str`",
    ),
    "string-for-list": (
        _with_raw(("schemas", 0, "type_constraints", 0, "allowed_types"), '"tensor(float)"'),
        "$.schemas[0].type_constraints[0].allowed_types: expected `array`, got `str`",
    ),
    "lone-surrogate": (
        _with_raw(("schemas", 1, "doc"), '"bad \\ud800 text"'),
        "$.schemas[1].doc: the string holds a lone surrogate",
    ),
    "lone-surrogate-at-the-end": (
        _with_raw(("onnx_version",), '"\\udfff"'),
        "$.onnx_version: the string holds a lone surrogate",
    ),
    "5000-digit-integer": (
        _with_raw(("schemas", 0, "min_inputs"), "9" * 5000),
        "$.schemas[0].min_inputs: an integer of 5000 digits is out of range",
    ),
    "5000-digit-version": (_with_raw(("format_version",), "1" * 5000), "5000 digits"),
    "null-for-string": (
        _with_raw(("schemas", 0, "name"), "null"),
        "$.schemas[0].name: expected `str`, got `null`",
    ),
    "negative-version": (
        _with_raw(("schemas", 1, "since_version"), "-3"),
        "$.schemas[1].since_version: a version is at least 1, not -3",
    ),
    "version-zero": (
        _with_raw(("schemas", 0, "since_version"), "0"),
        "$.schemas[0].since_version: a version is at least 1, not 0",
    ),
    "negative-count": (
        _with_raw(("schemas", 0, "min_inputs"), "-1"),
        "$.schemas[0].min_inputs: a count is at least 0, not -1",
    ),
    "version-zero-in-a-function-body": (
        _with_raw(("schemas", 1, "details", "function_bodies", 0, "opset_versions"), "[0]"),
        "$.schemas[1].details.function_bodies[0].opset_versions[0]: a version is at least 1",
    ),
    "escape-in-an-example": (
        _with_raw(("examples", "Concat", 0, "code"), '"x\\u001b[2J"'),
        "$.examples.Concat[0].code: holds the control character U+001B",
    ),
    "nul-in-a-name": (
        _with_raw(("schemas", 0, "name"), '"Con\\u0000cat"'),
        "$.schemas[0].name: holds the control character U+0000",
    ),
    "bell-in-a-name": (
        _with_raw(("schemas", 0, "inputs", 0, "name"), '"x\\u0007# heading"'),
        "$.schemas[0].inputs[0].name: holds the control character U+0007",
    ),
    "carriage-return-in-prose": (
        _with_raw(("schemas", 1, "doc"), '"one\\r\\rtwo"'),
        "$.schemas[1].doc: holds the control character U+000D",
    ),
    "escape-in-the-onnx-version": (
        _with_raw(("onnx_version",), '"1.2\\u001b[31m"'),
        "$.onnx_version: holds the control character U+001B",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_unusable_snapshot_is_one_line_and_exit_2(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = BAD_FILES[case]
    bad = tmp_path / "bad.json"
    bad.write_bytes(text.encode("latin-1") if case == "not-utf8" else text.encode("utf-8"))
    good = tmp_path / "good.json"
    good.write_text(_valid_text(), encoding="utf-8")
    assert main(["diff", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"gendoc: error: {bad}: ")
    assert expected in err


def test_bad_snapshot_values_are_also_rejected_by_the_json_schema() -> None:
    """The reader and the documented format agree on what is invalid."""
    validator = _validator()
    for text in (_with_bad_tag(), _with_version(FORMAT_VERSION + 1), _with_version("1")):
        assert not validator.is_valid(json.loads(text))


def test_missing_and_folder_paths_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.json"
    assert main(["diff", str(missing), "installed"]) == 2
    assert capsys.readouterr().err == f"gendoc: error: snapshot file not found: {missing}\n"
    assert main(["diff", str(tmp_path), "installed"]) == 2
    assert (
        capsys.readouterr().err
        == f"gendoc: error: snapshot path is a folder, not a file: {tmp_path}\n"
    )
    with pytest.raises(UsageError, match="not found"):
        load_snapshot(missing)


def test_truncated_snapshot_from_the_command_line_has_no_traceback(tmp_path: Path) -> None:
    exported = run_gendoc("export", "-o", str(tmp_path / "full.json"))
    assert exported.returncode == 0, exported.stderr
    full = (tmp_path / "full.json").read_text(encoding="utf-8")
    cut_text = full[: len(full) // 3]
    cut = tmp_path / "cut.json"
    cut.write_text(cut_text, encoding="utf-8")
    result = run_gendoc("diff", str(cut), str(tmp_path / "full.json"))
    assert result.returncode == 2
    assert result.stdout == ""
    last_line = cut_text.rstrip().count("\n") + 1
    assert result.stderr.splitlines() == [
        f"gendoc: error: {cut}: the JSON ends early at line {last_line}; the file looks truncated"
    ]
