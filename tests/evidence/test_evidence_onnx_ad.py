"""The onnx-ad source (Method 3): verdicts checked against the math of small hand-made
models, the shipped record, and how the source degrades when onnx-ad cannot run.

onnx-ad is the ``evidence`` extra; the tests that run it import it themselves, so
the rest (the record, the degradation) also runs where only ``.[onnx,test]`` is
installed."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from gendoc.catalogs.i18n import N_, Message, Quoted, quoted, say, translations
from gendoc.evidence import sources
from gendoc.evidence.cases import NumericCase
from gendoc.evidence.interface import Basis, Verdict
from gendoc.evidence.onnx_ad_record import (
    RecordedOnnxAdSource,
    load_record,
    status_line,
    unanswered,
)
from gendoc.evidence.record import interface_key, message_record
from gendoc.model.reference import Differentiability, Option, Parameter, Reference, Schema

FLOAT, INT64 = TensorProto.DOUBLE, TensorProto.INT64


def _case(
    op: str, version: int, inputs: dict[str, tuple[int, np.ndarray]], outputs: list[str], **attrs
) -> NumericCase:
    """A single-node model of ``op`` at opset ``version`` and the values of its inputs."""
    node = helper.make_node(op, list(inputs), outputs, **attrs)
    graph = helper.make_graph(
        [node],
        op,
        [helper.make_tensor_value_info(n, t, v.shape) for n, (t, v) in inputs.items()],
        [helper.make_tensor_value_info(n, 0, None) for n in outputs],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)])
    model = onnx.shape_inference.infer_shapes(model)
    return NumericCase(
        f"test_{op.lower()}", model.SerializeToString(), tuple(v for _, v in inputs.values())
    )


def _version(reference: Reference, op: str, version: int) -> Schema:
    return next(s for s in reference.operator("", op).versions if s.since_version == version)


def _param(name: str) -> Parameter:
    return Parameter(name, "T", "", Option.SINGLE, Differentiability.UNDEFINED)


def _verdicts(source: object, schema: Schema) -> dict[str, tuple[Verdict, str]]:
    return {
        str(p.parameter): (p.verdict, p.detail.text) for p in source.evaluate(schema).parameters
    }


RNG = np.random.default_rng(0)
X = RNG.uniform(0.5, 2.0, (2, 3))


@pytest.fixture(scope="module")
def hand_made() -> list[NumericCase]:
    return [
        _case("Mul", 14, {"A": (FLOAT, X), "B": (FLOAT, X + 1)}, ["C"]),
        _case("Floor", 13, {"X": (FLOAT, X)}, ["Y"]),
        _case("Gather", 13, {"data": (FLOAT, X), "indices": (INT64, np.array([1, 0]))}, ["out"]),
        _case("Pow", 15, {"X": (FLOAT, X), "Y": (FLOAT, X[::-1])}, ["Z"]),
        _case(
            "BatchNormalization",
            15,
            {
                "X": (FLOAT, RNG.standard_normal((2, 3, 2))),
                **{n: (FLOAT, RNG.uniform(0.5, 1.5, 3)) for n in ("scale", "B", "mean", "var")},
            },
            ["Y"],
        ),
        _case(
            "Resize",
            13,
            {
                "X": (FLOAT, RNG.standard_normal((1, 1, 2, 2))),
                "roi": (TensorProto.FLOAT, np.array([0, 0, 0, 0, 1, 1, 1, 1], np.float32)),
                "scales": (TensorProto.FLOAT, np.array([1, 1, 2, 2], np.float32)),
            },
            ["Y"],
        ),
    ]


def _live(cases: list[NumericCase]) -> Any:
    pytest.importorskip("onnx_ad")
    from gendoc.evidence.onnx_ad_source import OnnxAdSource

    return OnnxAdSource(cases)


def test_verdicts_follow_the_math(reference: Reference, hand_made: list[NumericCase]) -> None:
    source = _live(hand_made)
    mul = _verdicts(source, _version(reference, "Mul", 14))
    # d(AB)/dA = B and d(AB)/dB = A, nonzero at these values
    assert {v for v, _ in mul.values()} == {Verdict.GRADIENT}
    assert mul["input A"][1] == "nonzero adjoint (test_mul)"
    floor = source.evaluate(_version(reference, "Floor", 13)).parameters[0]
    # Floor is piecewise constant: onnx-ad's table declares a zero derivative, so its rule
    # emits no adjoint at all; a declaration weighs as policy, not as a measurement
    assert (floor.verdict, floor.basis) == (Verdict.ZERO, Basis.POLICY)
    assert (
        floor.detail.text
        == "declared zero derivative (onnx-ad's ZERO_DERIVATIVE table; test_floor)"
    )
    gather = _verdicts(source, _version(reference, "Gather", 13))
    assert gather["input data"][0] is Verdict.GRADIENT
    # indices are int32/int64 by the schema: there is nothing to differentiate
    assert gather["input indices"][0] is Verdict.REFUSED
    assert "floating-point tensors only" in gather["input indices"][1]
    power = _verdicts(source, _version(reference, "Pow", 15))
    # d(x^y)/dy = x^y ln x: the exponent has a gradient (x != 1 here)
    assert power["input Y"][0] is Verdict.GRADIENT
    norm = _verdicts(source, _version(reference, "BatchNormalization", 15))
    assert norm["input scale"][0] is Verdict.GRADIENT
    # no adjoint for the running statistics, and forward mode says why: a policy, which is
    # a refusal in onnx-ad's words, not a derivative found to be zero
    assert norm["input input_mean"] == (
        Verdict.REFUSED,
        "onnx-ad: UnsupportedOperator: the running mean and variance of BatchNormalization "
        "are statistics, not differentiable operands",
    )
    resize = _verdicts(source, _version(reference, "Resize", 13))
    assert resize["input X"][0] is Verdict.GRADIENT
    # onnx-ad declines (its rule wants constant scales): its reason, and no vote
    assert resize["input scales"][0] is Verdict.UNAVAILABLE
    assert resize["input scales"][1].startswith("onnx-ad: UnsupportedOperator: Resize ")
    detail = source.evaluate(_version(reference, "Mul", 14)).detail.text
    assert detail == f"onnx-ad {source.version} reverse mode on test_mul"


def test_no_case_and_other_domains_say_why(
    reference: Reference, hand_made: list[NumericCase]
) -> None:
    source = _live(hand_made)
    relu = reference.operator("", "Relu").latest
    assert set(_verdicts(source, relu).values()) == {
        (Verdict.UNAVAILABLE, "no backend test case fits this version")
    }
    custom = Schema(domain="my.domain", name="Mul", since_version=1, inputs=(_param("A"),))
    assert _verdicts(source, custom) == {
        "input A": (Verdict.UNAVAILABLE, "onnx-ad differentiates onnx's own operators")
    }


def test_an_older_version_takes_a_case_at_its_own_opset(
    reference: Reference, hand_made: list[NumericCase]
) -> None:
    source = _live(hand_made)
    from gendoc.evidence.onnx_ad_source import restamped

    floor13 = next(c for c in hand_made if c.name == "test_floor")
    stamped = restamped(floor13, "", 6)
    assert stamped is not None and stamped.name == "test_floor at opset 6"
    assert onnx.ModelProto.FromString(stamped.model).opset_import[0].version == 6
    floor6 = _verdicts(source, _version(reference, "Floor", 6))
    assert floor6["input X"] == (
        Verdict.ZERO,
        "declared zero derivative (onnx-ad's ZERO_DERIVATIVE table; test_floor at opset 6)",
    )
    # Clip-6 has min and max as attributes: a model with three inputs is not Clip-6
    clip = _case(
        "Clip",
        13,
        {"x": (FLOAT, X), "lo": (FLOAT, np.array(0.5)), "hi": (FLOAT, np.array(1.5))},
        ["y"],
    )
    assert restamped(clip, "", 6) is None


def test_the_record_holds_onnx_ads_answers(reference: Reference) -> None:
    """Facts of the math, read from the shipped record for versions every supported onnx
    has: the record is onnx-ad's answer, not a copy of the tags."""
    record = load_record()
    pins = (Path(__file__).parents[2] / "constraints" / "site.txt").read_text().split()
    assert f"onnx-ad=={record['onnx-ad']}" in pins
    recorded = RecordedOnnxAdSource()
    pow15 = _verdicts(recorded, _version(reference, "Pow", 15))
    assert pow15["input X"][0] is pow15["input Y"][0] is Verdict.GRADIENT
    assert _verdicts(recorded, _version(reference, "Floor", 13))["input X"][0] is Verdict.ZERO
    stft = _verdicts(recorded, _version(reference, "STFT", 17))
    assert stft["input signal"][0] is stft["input window"][0] is Verdict.GRADIENT
    assert stft["input frame_step"][0] is Verdict.REFUSED  # an int64 tensor
    for op in ("RNN", "GRU"):
        recurrent = _verdicts(recorded, _version(reference, op, 14))
        assert recurrent["input X"][0] is recurrent["input W"][0] is Verdict.GRADIENT
        # onnx's backend cases of RNN and GRU never pass an initial state: no answer, and why
        assert recurrent["input initial_h"] == (
            Verdict.UNAVAILABLE,
            "no backend test case gives it a floating-point value",
        )
    evidence = recorded.evaluate(_version(reference, "Pow", 15))
    assert evidence.source == "onnx-ad"
    assert evidence.detail.text.startswith(f"onnx-ad {record['onnx-ad']} reverse mode on ")
    # every operator it could not answer is named in its status line, with why
    assert recorded.status.text.startswith(
        f"onnx-ad {record['onnx-ad']}, reverse mode on the backend test cases of onnx "
        f"{record['onnx']}"
    )
    # onnx-ad has no rules for the ai.onnx.ml domain; onnx has no test case of MaxRoiPool
    assert "no reverse rule for TreeEnsemble: ai.onnx.ml.TreeEnsemble;" in recorded.status.text
    assert "MaxRoiPool" in recorded.status.text.split("no backend test case fits this version:")[1]


def _row(verdict: str, reason: Message) -> dict[str, Any]:
    return {"parameters": [["input", "x", verdict, message_record(reason)]]}


def _refused(words: str) -> Message:
    return say(N_("onnx-ad: {error}"), error=Quoted(words))


def test_unanswered_groups_operators_by_reason() -> None:
    """The record's reasons, grouped without the node or test case they name, are said in
    each language; onnx-ad's own words stay as they are."""
    case = say(N_("{case} at opset {version}"), case=Quoted("test_c"), version=7)
    sequence = say(N_("a sequence or absent input in {case}"), case=case)
    nonzero = say(N_("nonzero adjoint ({case})"), case=quoted("test_a"))
    kept = {
        "onnx": "1.0",
        "onnx-ad": "0.0",
        "verdicts": {
            "A-1 x": _row("unavailable", _refused("UnsupportedOperator: no rule (node 'n1')")),
            "A-2 x": _row("gradient", nonzero),
            "B-1 x": _row("unavailable", _refused("UnsupportedOperator: no rule (node 'n2')")),
            "C-1 x": _row("unavailable", sequence),
        },
    }
    found = {why.text: ops for why, ops in unanswered(kept["verdicts"]).items()}
    assert found == {
        "a sequence or absent input": ["C"],
        "onnx-ad: UnsupportedOperator: no rule": ["B"],
    }
    line = status_line(kept)
    assert line.text.endswith(
        "no answer for 2 operators: a sequence or absent input: C; "
        "onnx-ad: UnsupportedOperator: no rule: B"
    )
    assert line.format(translations("zh").gettext).endswith(
        "输入为序列或缺失：C；onnx-ad：UnsupportedOperator: no rule：B"
    )


def test_a_version_missing_from_the_record_is_asked_live(
    reference: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    floor = _version(reference, "Floor", 13)
    kept = {"onnx": "x", "onnx-ad": "y", "verdicts": {}}
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "onnx_ad" else real(name, *a)
    )
    assert _verdicts(RecordedOnnxAdSource(kept), floor) == {
        "input X": (Verdict.UNAVAILABLE, sources.ONNX_AD_MISSING.text),
        "output Y": (Verdict.UNAVAILABLE, sources.ONNX_AD_MISSING.text),
    }
    found = {interface_key(floor): {"detail": {"id": "kept", "args": {}}, "parameters": []}}
    assert RecordedOnnxAdSource({**kept, "verdicts": found}).evaluate(floor).detail.text == "kept"


def test_an_onnx_ad_that_cannot_import_degrades_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An onnx-ad release that fails on the installed onnx: one reason, no crash."""
    fake = tmp_path / "onnx_ad"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('needs a newer onnx')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "onnx_ad", raising=False)
    monkeypatch.delitem(sys.modules, "gendoc.evidence.onnx_ad_source", raising=False)
    importlib.invalidate_caches()
    source = sources.live_onnx_ad_source()
    assert source.name == "onnx-ad"
    reason = "onnx-ad cannot be imported: ImportError: needs a newer onnx"
    assert source.status.text == f"unavailable: {reason}"
    relu = Schema(domain="", name="Relu", since_version=14, inputs=(_param("X"),))
    assert _verdicts(source, relu) == {"input X": (Verdict.UNAVAILABLE, reason)}


def test_default_sources_count_onnx_ad() -> None:
    assert [s.name for s in sources.default_sources()] == ["pytorch", "onnxruntime", "onnx-ad"]


def test_a_case_is_read_at_the_widest_opset_of_its_version(
    reference: Reference, hand_made: list[NumericCase]
) -> None:
    """Gather has not changed since opset 13: its case is read at the newest opset (onnx-ad's
    adjoint needs ScatterND with a reduction, opset 16). GRU-14's case stops below GRU's
    next version, where one exists."""
    pytest.importorskip("onnx_ad")
    from gendoc.evidence.onnx_ad_source import widest_opset

    def opset(case: NumericCase, version: int) -> int:
        model = widest_opset(onnx.ModelProto.FromString(case.model), version)
        return model.opset_import[0].version

    gather = next(c for c in hand_made if c.name == "test_gather")
    assert [s.since_version for s in reference.operator("", "Gather").versions][-1] == 13
    assert opset(gather, 13) == onnx.defs.onnx_opset_version()
    gru = _case(
        "GRU",
        14,
        {
            "X": (FLOAT, RNG.standard_normal((2, 1, 3))),
            "W": (FLOAT, RNG.standard_normal((1, 6, 3))),
            "R": (FLOAT, RNG.standard_normal((1, 6, 2))),
        },
        ["Y", "Y_h"],
        hidden_size=2,
    )
    versions = [s.since_version for s in reference.operator("", "GRU").versions]
    later = [v for v in versions if v > 14]
    assert opset(gru, 14) == (later[0] - 1 if later else onnx.defs.onnx_opset_version())
