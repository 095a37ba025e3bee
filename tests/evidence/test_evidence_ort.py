"""The onnxruntime registry extractor on small hand-written sources, and the source built on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gendoc.evidence import ort_extract
from gendoc.evidence.interface import Verdict
from gendoc.evidence.ort_registry import OrtRegistrySource, load_registry
from gendoc.model.reference import Differentiability, Option, Parameter, Schema

REGISTRY = """
#define REGISTER_GRADIENT_BUILDER(op, gradientbuilder) \\
  GradientBuilderRegistry::GetInstance().Register<gradientbuilder>(op);
void GradientBuilderRegistry::RegisterGradientBuilders() {
  REGISTER_GRADIENT_BUILDER("Mul", GetMulGradient);
  // REGISTER_GRADIENT_BUILDER("Commented", GetCommentedGradient);
  REGISTER_GRADIENT_BUILDER("Concat", GetConcatGradient)
  REGISTER_GRADIENT_BUILDER("Pow", GetPowGradient);
  NO_GRADIENT("Shape");
};
"""

BUILDERS = """
#define IMPLEMENT_GRADIENT_BUILDER(name) std::vector<NodeDef> name::GetGradientDefsImpl() const
IMPLEMENT_GRADIENT_BUILDER(GetMulGradient) {
  if (IsGradientRequiredForSrcNodeInput(1)) {
    result.push_back(NodeDef("Mul", {GO(0), I(0)}, {GI(1)}));
  }
  ArgDef dA = GI(0);  /* GI(7) in a comment is no index */
  return result;
}
IMPLEMENT_GRADIENT_BUILDER(GetConcatGradient) {
  for (int i = 0; i < GetSrcNodeInputSize(); ++i) { outputs.push_back(GI(i)); }
  std::string s = "GI(5) {";
  return {NodeDef("Split", {GO(0)}, outputs)};
}
IMPLEMENT_GRADIENT_BUILDER(GetPowGradient) {
  return {NodeDef("Mul", {GO(0), I(1)}, {GI(0)})};
}
IMPLEMENT_GRADIENT_BUILDER(GetExternalGradient) {
  output_args.emplace_back(GI(index));
  return result;
}
"""

STOP_EDGES = """
static std::unordered_map<std::string, std::unordered_set<size_t>>
    STOP_GRADIENT_EDGES = {
        {"Pow", {1}},  // a comment {"Fake", {0}}
        {"Shape", {0}},
        {"Slice", {1, 2, 3, 4}}};
static std::unordered_set<std::string> OTHER{"Relu"};
"""


def _write_sources(root: Path, stop_edges: str = STOP_EDGES) -> None:
    texts = {
        ort_extract.REGISTRY_FILE: REGISTRY,
        ort_extract.BUILDER_FILE: BUILDERS,
        ort_extract.STOP_EDGES_FILE: stop_edges,
        "VERSION_NUMBER": "9.9.9\n",
    }
    for rel, text in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_extract_reads_registry_builders_and_stop_edges(tmp_path: Path) -> None:
    _write_sources(tmp_path)
    data = ort_extract.extract(tmp_path, tag="v9.9.9", commit="abc123")
    assert data["onnxruntime"]["version"] == "9.9.9"
    assert data["onnxruntime"]["tag"] == "v9.9.9"
    assert data["onnxruntime"]["commit"] == "abc123"
    assert data["registry"] == {
        "Mul": "GetMulGradient",
        "Concat": "GetConcatGradient",
        "Pow": "GetPowGradient",
        "Shape": "EmptyGradientBuilder",
    }
    builders = data["builders"]
    assert builders["GetMulGradient"]["inputs"] == {"fixed": [0, 1], "ranges": [], "dynamic": False}
    assert builders["GetMulGradient"]["outputs"]["fixed"] == [0]
    assert builders["GetConcatGradient"]["inputs"] == {
        "fixed": [],
        "ranges": [{"from": 0, "below": None, "skip": []}],
        "dynamic": False,
    }
    assert builders["GetPowGradient"]["inputs"]["fixed"] == [0]
    assert builders["GetExternalGradient"]["inputs"]["dynamic"] is True
    assert data["stop_gradient_edges"] == {"Pow": [1], "Shape": [0], "Slice": [1, 2, 3, 4]}


def test_cli_writes_deterministic_json_and_reports_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    _write_sources(src)
    out = tmp_path / "out.json"
    assert ort_extract.main([str(src), "v9.9.9", "c0ffee", str(out)]) == 0
    first = out.read_bytes()
    assert ort_extract.main([str(src), "v9.9.9", "c0ffee", str(out)]) == 0
    assert out.read_bytes() == first
    assert json.loads(first)["registry"]["Mul"] == "GetMulGradient"

    assert ort_extract.main([str(tmp_path / "nowhere"), "v1", "x", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gendoc: error: cannot read ") and err.count("\n") == 1

    # a main-branch checkout is not the release its tag names
    assert ort_extract.main([str(src), "v1.17.0", "c0ffee", str(out)]) == 2
    err = capsys.readouterr().err
    assert "tag v1.17.0 does not name the version in VERSION_NUMBER (9.9.9)" in err

    assert ort_extract.main([str(src), "--commit", "c0ffee"]) == 2
    assert capsys.readouterr().err == ort_extract.USAGE + "\n"


def test_missing_stop_table_is_an_error(tmp_path: Path) -> None:
    _write_sources(tmp_path, stop_edges="// nothing here\n")
    with pytest.raises(ort_extract.GendocError, match="STOP_GRADIENT_EDGES"):
        ort_extract.extract(tmp_path, tag="v9.9.9", commit="x")


def _param(name: str, option: Option = Option.SINGLE) -> Parameter:
    return Parameter(name, "T", "", option, Differentiability.UNDEFINED)


def _schema(name: str, inputs: list[Parameter], outputs: list[Parameter]) -> Schema:
    return Schema(
        domain="", name=name, since_version=1, inputs=tuple(inputs), outputs=tuple(outputs)
    )


def _verdicts(source: OrtRegistrySource, schema: Schema) -> dict[str, Verdict]:
    return {str(p.parameter): p.verdict for p in source.evaluate(schema).parameters}


def test_source_verdicts_from_fixture_registry(tmp_path: Path) -> None:
    _write_sources(tmp_path)
    source = OrtRegistrySource(ort_extract.extract(tmp_path, tag="v9.9.9", commit="abc123"))
    pow_ = _schema("Pow", [_param("X"), _param("Y")], [_param("Z"), _param("Extra")])
    assert _verdicts(source, pow_) == {
        "input X": Verdict.GRADIENT,
        "input Y": Verdict.REFUSED,  # stop edge outranks the builder
        "output Z": Verdict.GRADIENT,
        "output Extra": Verdict.REFUSED,  # GO(1) never read
    }
    concat = _schema("Concat", [_param("inputs", Option.VARIADIC)], [_param("r")])
    assert _verdicts(source, concat)["input inputs"] is Verdict.GRADIENT
    shape = _schema("Shape", [_param("data")], [_param("shape")])
    assert _verdicts(source, shape) == {
        "input data": Verdict.REFUSED,
        "output shape": Verdict.REFUSED,
    }
    unknown = _schema("Nothing", [_param("x")], [_param("y")])
    assert set(_verdicts(source, unknown).values()) == {Verdict.UNAVAILABLE}
    custom = Schema(domain="my.domain", name="Mul", since_version=1, inputs=(_param("A"),))
    assert _verdicts(source, custom) == {"input A": Verdict.UNAVAILABLE}
    assert "onnxruntime v9.9.9 (commit abc123)" in source.evaluate(pow_).detail.text


# Written for these tests in the shape of onnxruntime's recurrent builders: the
# gradients of the inputs are made in a loop that skips one input by a named
# constant, the output gradients in a loop with a literal bound, and a second loop
# over the same variable (reading I(i), not GI(i)) skips two others.
RECURRENT = """
IMPLEMENT_GRADIENT_BUILDER(GetCellGradient) {
  constexpr int skipped_a = 3;
  constexpr int skipped_b = 7;
  for (int i = 0; i < GetSrcNodeInputSize(); i++) {
    if (i == skipped_a || i == skipped_b)
      continue;
    args.push_back(I(i));
  }
  for (int o = 0; o < 3; ++o) {
    if (GO(o).Exists()) { args.push_back(GO(o)); }
  }
  constexpr int lengths_index = 4;
  for (int i = 0; i < GetSrcNodeInputSize(); ++i) {
    if (lengths_index == i) continue;
    outputs.push_back(GI(i));
  }
  return result;
}
IMPLEMENT_GRADIENT_BUILDER(GetGuardedGradient) {
  for (int i = 1; i < GetSrcNodeInputSize(); ++i) {
    if (!IsGradientRequiredForSrcNodeInput(i)) { continue; }
    outputs.push_back(GI(i));
  }
  return result;
}
"""


def test_loops_with_bounds_and_skips() -> None:
    builders = ort_extract.parse_builders(RECURRENT)
    cell = builders["GetCellGradient"]
    assert cell["inputs"] == {
        "fixed": [],
        "ranges": [{"from": 0, "below": None, "skip": [4]}],
        "dynamic": False,
    }
    assert cell["outputs"] == {
        "fixed": [],
        "ranges": [{"from": 0, "below": 3, "skip": []}],
        "dynamic": False,
    }
    # a skip decided at run time cannot be read: the loop's indices are not claimed
    assert builders["GetGuardedGradient"]["inputs"] == {
        "fixed": [],
        "ranges": [],
        "dynamic": True,
    }


def test_replaced_operator_answers_from_its_training_builder() -> None:
    data = {
        "onnxruntime": {"version": "9.9.9", "tag": "v9.9.9", "commit": "abc123"},
        "registry": {"GRUTraining": "GetCellGradient"},
        "builders": ort_extract.parse_builders(RECURRENT),
        "stop_gradient_edges": {},
    }
    names = ["X", "W", "R", "B", "sequence_lens", "initial_h"]
    gru = _schema("GRU", [_param(n) for n in names], [_param("Y"), _param("Y_h")])
    verdicts = _verdicts(OrtRegistrySource(data), gru)
    assert verdicts.pop("input sequence_lens") is Verdict.REFUSED
    assert set(verdicts.values()) == {Verdict.GRADIENT}
    assert "GetCellGradient for GRUTraining" in OrtRegistrySource(data).evaluate(gru).detail.text


def test_shipped_data_matches_hand_read_builders() -> None:
    """Facts read by eye in onnxruntime v1.19.2's gradient_builder.cc, its registry and
    the stop table (commit ffceed9d44f2, the commit the release tag names)."""
    data = load_registry()
    assert data["onnxruntime"]["tag"] == "v1.19.2"
    assert data["onnxruntime"]["version"] == "1.19.2"
    assert data["onnxruntime"]["commit"].startswith("ffceed9d44f2")
    assert data["builders"]["GetGemmGradient"]["inputs"]["fixed"] == [0, 1, 2]
    assert data["builders"]["GetWhereGradient"]["inputs"]["fixed"] == [1, 2]
    assert data["builders"]["GetConvGradient"]["inputs"]["ranges"] == [
        {"from": 0, "below": None, "skip": []}
    ]
    assert data["stop_gradient_edges"]["Clip"] == [1, 2]
    assert data["registry"]["BatchNormInternal"] == "GetBatchNormalizationGradient"
    # the release has a Resize builder (the main-branch commit read before did not)
    assert data["registry"]["Resize"] == "GetResizeGradient"
    assert data["builders"]["GetResizeGradient"]["inputs"]["fixed"] == [0]
    # LSTM and GRU are differentiated as LSTMTraining/GRUTraining; sequence_lens is skipped
    assert data["registry"]["LSTMTraining"] == "GetLSTMGradient"
    assert data["registry"]["GRUTraining"] == "GetGRUGradient"
    for builder, outputs in (("GetLSTMGradient", 3), ("GetGRUGradient", 2)):
        assert data["builders"][builder]["inputs"]["ranges"] == [
            {"from": 0, "below": None, "skip": [4]}
        ]
        assert data["builders"][builder]["outputs"]["ranges"] == [
            {"from": 0, "below": outputs, "skip": []}
        ]


def test_a_source_file_that_is_not_utf8_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_sources(tmp_path)
    (tmp_path / ort_extract.BUILDER_FILE).write_bytes(b"IMPLEMENT_GRADIENT_BUILDER(\xff) {}")
    assert ort_extract.main([str(tmp_path), "v9.9.9", "abc", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert err == f"gendoc: error: {tmp_path / ort_extract.BUILDER_FILE} is not UTF-8 text\n"
    assert not (tmp_path / "out.json").exists()
