"""The PyTorch source: verdicts checked against torch's documented behaviour and the math."""

from __future__ import annotations

import sys

import pytest

from gendoc.evidence import sources
from gendoc.evidence.interface import Basis, Verdict
from gendoc.model.reference import ParameterRef, Part, Reference


def _verdicts(reference: Reference, op: str) -> dict[str, Verdict]:
    torch_source = sources.live_torch_source()
    evidence = torch_source.evaluate(reference.operator("", op).latest)
    return {str(p.parameter): p.verdict for p in evidence.parameters}


def test_without_torch_every_live_verdict_is_unavailable(
    reference: Reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    monkeypatch.delitem(sys.modules, "gendoc.evidence.torch_source", raising=False)
    evidence = sources.live_torch_source().evaluate(reference.operator("", "Add").latest)
    assert {p.verdict for p in evidence.parameters} == {Verdict.UNAVAILABLE}
    assert {p.detail.text for p in evidence.parameters} == {"torch is not installed"}


def test_smooth_operator_has_gradients(reference: Reference) -> None:
    pytest.importorskip("torch")
    assert _verdicts(reference, "MatMul") == {
        "input A": Verdict.GRADIENT,
        "input B": Verdict.GRADIENT,
        "output Y": Verdict.GRADIENT,
    }


def test_piecewise_constant_gradient_is_zero(reference: Reference) -> None:
    pytest.importorskip("torch")
    assert _verdicts(reference, "Floor") == {"input X": Verdict.ZERO, "output Y": Verdict.ZERO}


def test_refusals_keep_torch_reason(reference: Reference) -> None:
    pytest.importorskip("torch")
    torch_source = sources.live_torch_source()
    evidence = torch_source.evaluate(reference.operator("", "NegativeLogLikelihoodLoss").latest)
    weight = evidence.verdict_of(ParameterRef(Part.INPUT, "weight"))
    assert weight is not None and weight.verdict is Verdict.REFUSED
    assert "not differentiable with respect to argument 'weight'" in weight.detail.text
    assert weight.basis is Basis.POLICY  # declared by torch, not found by autograd
    assert (
        evidence.verdict_of(ParameterRef(Part.INPUT, "target")).verdict is Verdict.REFUSED
    )  # int64 labels
    assert evidence.verdict_of(ParameterRef(Part.INPUT, "input")).verdict is Verdict.GRADIENT
    assert "F.nll_loss" in evidence.detail.text


def test_integer_tensors_are_refused_and_python_values_not_measured(
    reference: Reference,
) -> None:
    pytest.importorskip("torch")
    topk = _verdicts(reference, "TopK")
    assert topk["output Indices"] is Verdict.REFUSED
    assert topk["output Values"] is Verdict.GRADIENT
    assert topk["input K"] is Verdict.NOT_MEASURED  # torch.topk takes k as a Python int
    for name in ("start", "limit", "delta"):  # torch.arange(start, limit, delta): scalars
        assert _verdicts(reference, "Range")[f"input {name}"] is Verdict.NOT_MEASURED
    assert _verdicts(reference, "Pad")["input constant_value"] is Verdict.NOT_MEASURED
    equal = _verdicts(reference, "Equal")
    assert set(equal.values()) == {Verdict.REFUSED}


def test_unmapped_and_unreturned_are_unavailable(reference: Reference) -> None:
    pytest.importorskip("torch")
    assert set(_verdicts(reference, "Loop").values()) == {Verdict.UNAVAILABLE}
    dropout = _verdicts(reference, "Dropout")
    assert dropout["output mask"] is Verdict.UNAVAILABLE  # F.dropout returns no mask


def test_every_mapping_names_real_inputs_and_runs(reference: Reference) -> None:
    pytest.importorskip("torch")
    from gendoc.evidence.torch_ops import TORCH_OPS

    checked = 0
    for name, spec in TORCH_OPS.items():
        operator = reference.operator("", name)
        if operator is None:  # newer than the installed onnx (onnx 1.16 lacks a few)
            continue
        checked += 1
        schema = operator.latest
        assert set(spec.inputs) <= {p.name for p in schema.inputs}, name
        evidence = sources.live_torch_source().evaluate(schema)
        failed = [
            p.detail.text for p in evidence.parameters if "torch call failed" in p.detail.text
        ]
        assert not failed, (name, failed[:1])
    assert checked >= 120


def test_recurrent_initial_states_get_a_gradient(reference: Reference) -> None:
    """h_0 and c_0 enter the first step's gates: torch's backward reaches them (hx.grad)."""
    pytest.importorskip("torch")
    lstm = _verdicts(reference, "LSTM")
    for name in ("X", "W", "R", "B", "initial_h", "initial_c"):
        assert lstm[f"input {name}"] is Verdict.GRADIENT, name
    assert lstm["input sequence_lens"] is Verdict.UNAVAILABLE  # no counterpart in torch.lstm
    assert {lstm[f"output {n}"] for n in ("Y", "Y_h", "Y_c")} == {Verdict.GRADIENT}
    assert _verdicts(reference, "GRU")["input initial_h"] is Verdict.GRADIENT
    assert _verdicts(reference, "RNN")["input initial_h"] is Verdict.GRADIENT


def test_a_composite_expression_is_labelled_on_every_verdict(reference: Reference) -> None:
    """OneHot is our arithmetic around F.one_hot; MatMul is one torch operator."""
    pytest.importorskip("torch")
    live = sources.live_torch_source()
    onehot = live.evaluate(reference.operator("", "OneHot").latest)
    assert onehot.detail.text.startswith("composite expression values[0] + ")
    assert {p.basis for p in onehot.parameters} == {Basis.COMPOSITE}
    matmul = live.evaluate(reference.operator("", "MatMul").latest)
    assert {p.basis for p in matmul.parameters} == {Basis.AUTOGRAD}


def test_stft_mapping_computes_onnx_stft(reference: Reference) -> None:
    """The torch expression for STFT gives what onnx's reference STFT gives on the same
    signal, window and frame sizes, and autograd reaches the signal and the window."""
    torch = pytest.importorskip("torch")
    import numpy as np
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    from gendoc.evidence.torch_ops import TORCH_OPS
    from gendoc.evidence.torch_source import run_call

    node = helper.make_node("STFT", ["signal", "frame_step", "window", "frame_length"], ["out"])
    graph = helper.make_graph(
        [node],
        "stft",
        [
            helper.make_tensor_value_info("signal", TensorProto.DOUBLE, [1, 16, 1]),
            helper.make_tensor_value_info("frame_step", TensorProto.INT64, []),
            helper.make_tensor_value_info("window", TensorProto.DOUBLE, [8]),
            helper.make_tensor_value_info("frame_length", TensorProto.INT64, []),
        ],
        [helper.make_tensor_value_info("out", TensorProto.DOUBLE, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    rng = np.random.default_rng(3)
    signal, window = rng.standard_normal((1, 16, 1)), rng.standard_normal(8)
    sizes = {"frame_step": np.array(4), "frame_length": np.array(8)}
    (expected,) = ReferenceEvaluator(model).run(None, {"signal": signal, "window": window, **sizes})
    spec = TORCH_OPS["STFT"]
    inputs = {"signal": torch.tensor(signal), "window": torch.tensor(window)}
    (got,) = run_call(spec, {**inputs, "frame_step": 4, "frame_length": 8})
    assert expected.shape == (1, 3, 5, 2)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-10)

    stft = _verdicts(reference, "STFT")
    assert stft["input signal"] is Verdict.GRADIENT
    assert stft["input window"] is Verdict.GRADIENT
    assert stft["output output"] is Verdict.GRADIENT
