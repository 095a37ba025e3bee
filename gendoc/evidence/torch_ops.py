"""ONNX operators (default domain, newest version) as PyTorch calls: a table, no torch import.

Each entry is the torch expression a reviewer would write for the guide's
"Method 1", with the ONNX input names as variables, and how to build each
input. The expression is evaluated with ``torch``, ``F``
(``torch.nn.functional``) and ``reduce`` (``functools.reduce``) in scope, and
the same text goes into the generated scripts, so what is probed is what is
shown. Attributes take onnx's defaults unless the entry says otherwise; an
optional input that the torch call has no counterpart for is left out and
answered ``UNAVAILABLE``.

Input builders:

``Real(*shape, low, high)``
    a float64 tensor, uniform in ``[low, high]``, seeded; probed with
    ``requires_grad``.
``Ints(values)`` / ``Bools(*shape)``
    a valid integer tensor (indices, axes) / a random boolean tensor: torch
    cannot ask for their gradient, which is the refusal.
``Value(value)``
    the ONNX tensor becomes a plain Python value in the call (a shape, a
    ratio): it is not a tensor argument of the torch call.
``Several(*builders)``
    a variadic input, a list of tensors.

An expression that does arithmetic of its own on an input (``+``, ``*``, ...:
OneHot as ``values[0] + (values[1] - values[0]) * one_hot``) is *composite*
(:attr:`TorchOp.composite`): autograd then differentiates our formula, not
one torch operator, and the verdict weighs less. Calls, indexing and
slicing are not arithmetic.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

from gendoc.catalogs.i18n import N_, say
from gendoc.model.reference import Schema


@dataclass(frozen=True)
class Real:
    shape: tuple[int, ...]
    low: float = -2.0
    high: float = 2.0

    def __init__(self, *shape: int, low: float = -2.0, high: float = 2.0) -> None:
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)


@dataclass(frozen=True)
class Ints:
    values: object  # a nested list of ints


@dataclass(frozen=True)
class Bools:
    shape: tuple[int, ...]

    def __init__(self, *shape: int) -> None:
        object.__setattr__(self, "shape", shape)


@dataclass(frozen=True)
class Value:
    value: object


@dataclass(frozen=True)
class Several:
    items: tuple[Real, ...]

    def __init__(self, *items: Real) -> None:
        object.__setattr__(self, "items", items)


Builder = Real | Ints | Bools | Value | Several


@dataclass(frozen=True)
class TorchOp:
    """One operator: the torch expression and the builder of every input it reads."""

    call: str
    inputs: dict[str, Builder]

    @cached_property
    def composite(self) -> bool:
        """Whether the expression applies an arithmetic operator to an input (not only to
        constants): then it is our formula that autograd differentiates."""
        names = set(self.inputs)
        return any(
            isinstance(node, ast.BinOp | ast.UnaryOp)
            and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))
            for node in ast.walk(ast.parse(self.call, mode="eval"))
        )


def op(call: str, **inputs: Builder) -> TorchOp:
    return TorchOp(call, inputs)


def _unary(call: str, name: str, low: float = -2.0, high: float = 2.0) -> TorchOp:
    return op(call, **{name: Real(2, 3, low=low, high=high)})


def _binary(call: str, low: float = -2.0) -> TorchOp:
    return op(call, A=Real(2, 3), B=Real(2, 3, low=low))


def _reduce(call: str, low: float = -2.0) -> TorchOp:
    return op(call, data=Real(2, 3, low=low), axes=Value([1]))


def _recurrent(function: str, gates: int) -> TorchOp:
    """One layer, one direction: hidden size 2, input size 3, sequence 2, batch 1.

    torch takes the weights of one direction as (W, R, Wb, Rb), one block of
    rows per gate. Its gate order differs from onnx's (LSTM: ifgo against
    iofc), which permutes rows but changes no dependence. ``sequence_lens`` and
    LSTM's peepholes ``P`` have no counterpart.
    """
    rows = 2 * gates
    state = "(initial_h, initial_c)" if function == "lstm" else "initial_h"
    call = (
        f"torch.{function}(X, {state}, (W[0], R[0], B[0, :{rows}], B[0, {rows}:]), True, 1,"
        " 0.0, False, False, False)"
    )
    inputs: dict[str, Builder] = {
        "X": Real(2, 1, 3),
        "W": Real(1, rows, 3),
        "R": Real(1, rows, 2),
        "B": Real(1, 2 * rows),
        "initial_h": Real(1, 1, 2),
    }
    if function == "lstm":
        inputs["initial_c"] = Real(1, 1, 2)
    return op(call, **inputs)


_IMAGE = Real(1, 2, 4, 4)
_KERNEL = Real(3, 2, 2, 2)
_BIAS3 = Real(3)
_UNIT = {"low": -0.9, "high": 0.9}
_POSITIVE = {"low": 0.5, "high": 2.0}

NO_MAPPING = say(N_("no torch mapping"))
"""Why PyTorch cannot answer an operator :data:`TORCH_OPS` does not map."""

TORCH_OPS: dict[str, TorchOp] = {
    # elementwise math
    "Abs": _unary("torch.abs(X)", "X"),
    "Acos": _unary("torch.acos(input)", "input", **_UNIT),
    "Acosh": _unary("torch.acosh(input)", "input", low=1.5, high=3.0),
    "Asin": _unary("torch.asin(input)", "input", **_UNIT),
    "Asinh": _unary("torch.asinh(input)", "input"),
    "Atan": _unary("torch.atan(input)", "input"),
    "Atanh": _unary("torch.atanh(input)", "input", **_UNIT),
    "Ceil": _unary("torch.ceil(X)", "X"),
    "Cos": _unary("torch.cos(input)", "input"),
    "Cosh": _unary("torch.cosh(input)", "input"),
    "Erf": _unary("torch.erf(input)", "input"),
    "Exp": _unary("torch.exp(input)", "input"),
    "Floor": _unary("torch.floor(X)", "X"),
    "Log": _unary("torch.log(input)", "input", **_POSITIVE),
    "Neg": _unary("torch.neg(X)", "X"),
    "Reciprocal": _unary("torch.reciprocal(X)", "X", **_POSITIVE),
    "Round": _unary("torch.round(X)", "X"),
    "Sign": _unary("torch.sign(input)", "input"),
    "Sin": _unary("torch.sin(input)", "input"),
    "Sinh": _unary("torch.sinh(input)", "input"),
    "Sqrt": _unary("torch.sqrt(X)", "X", **_POSITIVE),
    "Tan": _unary("torch.tan(input)", "input", **_UNIT),
    "Tanh": _unary("torch.tanh(input)", "input"),
    "Add": _binary("torch.add(A, B)"),
    "Sub": _binary("torch.sub(A, B)"),
    "Mul": _binary("torch.mul(A, B)"),
    "Div": _binary("torch.div(A, B)", low=0.5),
    "Mod": op("torch.fmod(A, B)", A=Real(2, 3, low=-5.0, high=5.0), B=Real(2, 3, low=1.0)),
    "Pow": op("torch.pow(X, Y)", X=Real(2, 3, **_POSITIVE), Y=Real(2, 3)),
    "Max": op("reduce(torch.maximum, data_0)", data_0=Several(Real(2, 3), Real(2, 3))),
    "Min": op("reduce(torch.minimum, data_0)", data_0=Several(Real(2, 3), Real(2, 3))),
    "Mean": op("torch.stack(data_0).mean(0)", data_0=Several(Real(2, 3), Real(2, 3))),
    "Sum": op("torch.stack(data_0).sum(0)", data_0=Several(Real(2, 3), Real(2, 3))),
    "Where": op("torch.where(condition, X, Y)", condition=Bools(2, 3), X=Real(2, 3), Y=Real(2, 3)),
    "Clip": op(
        "torch.clamp(input, min, max)",
        input=Real(2, 3),
        min=Real(low=-1.0, high=-0.5),
        max=Real(low=0.5, high=1.0),
    ),
    "Cast": op("input.to(torch.float32)", input=Real(2, 3)),
    "CastLike": op("input.to(target_type.dtype)", input=Real(2, 3), target_type=Real(1)),
    "Identity": op("input.clone()", input=Real(2, 3)),
    # comparisons and logic
    "Equal": _binary("torch.eq(A, B)"),
    "Greater": _binary("torch.gt(A, B)"),
    "GreaterOrEqual": _binary("torch.ge(A, B)"),
    "Less": _binary("torch.lt(A, B)"),
    "LessOrEqual": _binary("torch.le(A, B)"),
    "IsInf": _unary("torch.isinf(X)", "X"),
    "IsNaN": _unary("torch.isnan(X)", "X"),
    "Not": op("torch.logical_not(X)", X=Bools(2, 3)),
    "And": op("torch.logical_and(A, B)", A=Bools(2, 3), B=Bools(2, 3)),
    "Or": op("torch.logical_or(A, B)", A=Bools(2, 3), B=Bools(2, 3)),
    "Xor": op("torch.logical_xor(A, B)", A=Bools(2, 3), B=Bools(2, 3)),
    "BitwiseAnd": op("torch.bitwise_and(A, B)", A=Ints([3, 5]), B=Ints([6, 1])),
    "BitwiseNot": op("torch.bitwise_not(X)", X=Ints([3, 5])),
    "NonZero": _unary("torch.nonzero(X).T", "X"),
    "ArgMax": op("torch.argmax(data, 0, keepdim=True)", data=Real(2, 3)),
    "ArgMin": op("torch.argmin(data, 0, keepdim=True)", data=Real(2, 3)),
    "Shape": op("torch.tensor(data.shape)", data=Real(2, 3)),
    "Size": op("torch.tensor(data.numel())", data=Real(2, 3)),
    # activations
    "Relu": _unary("torch.relu(X)", "X"),
    "LeakyRelu": _unary("F.leaky_relu(X, 0.01)", "X"),
    "PRelu": op("F.prelu(X, slope)", X=Real(2, 3), slope=Real(3)),
    "Elu": _unary("F.elu(X)", "X"),
    "Celu": _unary("F.celu(X)", "X"),
    "Selu": _unary("F.selu(X)", "X"),
    "Sigmoid": _unary("torch.sigmoid(X)", "X"),
    "HardSigmoid": _unary("torch.clamp(0.2 * X + 0.5, 0, 1)", "X"),
    "HardSwish": _unary("F.hardswish(X)", "X"),
    "Softplus": _unary("F.softplus(X)", "X"),
    "Softsign": _unary("F.softsign(input)", "input"),
    "Mish": _unary("F.mish(X)", "X"),
    "Gelu": _unary("F.gelu(X)", "X"),
    "Swish": _unary("F.silu(X)", "X"),
    "ThresholdedRelu": _unary("F.threshold(X, 1.0, 0.0)", "X"),
    "Shrink": _unary("F.hardshrink(input, 0.5)", "input"),
    "Softmax": _unary("torch.softmax(input, -1)", "input"),
    "LogSoftmax": _unary("torch.log_softmax(input, -1)", "input"),
    "Hardmax": _unary("F.one_hot(input.argmax(-1), input.shape[-1]).to(input.dtype)", "input"),
    # reductions and scans
    "ReduceSum": _reduce("torch.sum(data, axes, keepdim=True)"),
    "ReduceMean": _reduce("torch.mean(data, axes, keepdim=True)"),
    "ReduceMax": _reduce("torch.amax(data, axes, keepdim=True)"),
    "ReduceMin": _reduce("torch.amin(data, axes, keepdim=True)"),
    "ReduceProd": _reduce("torch.prod(data, axes[0], keepdim=True)"),
    "ReduceL1": _reduce("torch.linalg.vector_norm(data, 1, axes, keepdim=True)"),
    "ReduceL2": _reduce("torch.linalg.vector_norm(data, 2, axes, keepdim=True)"),
    "ReduceLogSum": _reduce("torch.log(torch.sum(data, axes, keepdim=True))", low=0.5),
    "ReduceLogSumExp": _reduce("torch.logsumexp(data, axes, keepdim=True)"),
    "ReduceSumSquare": _reduce("torch.sum(data * data, axes, keepdim=True)"),
    "CumSum": op("torch.cumsum(x, axis)", x=Real(2, 3), axis=Value(1)),
    "CumProd": op("torch.cumprod(x, axis)", x=Real(2, 3), axis=Value(1)),
    "TopK": op("torch.topk(X, K)", X=Real(2, 5), K=Value(2)),
    "Unique": op("torch.unique(X)", X=Real(2, 3)),
    # linear algebra
    "MatMul": op("torch.matmul(A, B)", A=Real(2, 3), B=Real(3, 4)),
    "Gemm": op("torch.addmm(C, A, B)", A=Real(2, 3), B=Real(3, 4), C=Real(2, 4)),
    "Einsum": op('torch.einsum("ij,jk->ik", *Inputs)', Inputs=Several(Real(2, 3), Real(3, 4))),
    "Det": op("torch.linalg.det(X)", X=Real(3, 3)),
    # convolution, pooling, resampling
    "Conv": op("F.conv2d(X, W, B)", X=_IMAGE, W=_KERNEL, B=_BIAS3),
    "ConvTranspose": op("F.conv_transpose2d(X, W, B)", X=_IMAGE, W=Real(2, 3, 2, 2), B=_BIAS3),
    "AveragePool": op("F.avg_pool2d(X, 2)", X=_IMAGE),
    "MaxPool": op("F.max_pool2d(X, 2, return_indices=True)", X=_IMAGE),
    "GlobalAveragePool": op("F.adaptive_avg_pool2d(X, 1)", X=_IMAGE),
    "GlobalMaxPool": op("F.adaptive_max_pool2d(X, 1)", X=_IMAGE),
    "LpPool": op("F.lp_pool2d(X, 2, 2)", X=_IMAGE),
    "GlobalLpPool": op("torch.linalg.vector_norm(X, 2, (2, 3), keepdim=True)", X=_IMAGE),
    "MaxUnpool": op(
        "F.max_unpool2d(X, I, 2, output_size=output_shape)",
        X=Real(1, 1, 2, 2),
        I=Ints([[[[5, 2], [12, 15]]]]),
        output_shape=Value([1, 1, 4, 4]),
    ),
    "LRN": op("F.local_response_norm(X, 3)", X=_IMAGE),
    "Resize": op(
        'F.interpolate(X, scale_factor=scales[2:], mode="nearest")',
        X=_IMAGE,
        scales=Value([1.0, 1.0, 2.0, 2.0]),
    ),
    "Upsample": op(
        'F.interpolate(X, scale_factor=scales[2:], mode="nearest")',
        X=_IMAGE,
        scales=Value([1.0, 1.0, 2.0, 2.0]),
    ),
    "GridSample": op(
        "F.grid_sample(X, grid, align_corners=False)",
        X=_IMAGE,
        grid=Real(1, 3, 3, 2, low=-0.9, high=0.9),
    ),
    "AffineGrid": op(
        "F.affine_grid(theta, size, align_corners=False)",
        theta=Real(1, 2, 3),
        size=Value([1, 2, 4, 4]),
    ),
    "Col2Im": op(
        "F.fold(input, image_shape, block_shape)",
        input=Real(1, 4, 9),
        image_shape=Value([4, 4]),
        block_shape=Value([2, 2]),
    ),
    "DepthToSpace": op("F.pixel_shuffle(input, 2)", input=Real(1, 4, 2, 2)),
    "SpaceToDepth": op("F.pixel_unshuffle(input, 2)", input=Real(1, 1, 4, 4)),
    "DFT": op(
        "torch.view_as_real(torch.fft.fft(input[..., 0], dim=axis))",
        input=Real(1, 8, 1),
        axis=Value(1),
    ),
    # torch's frames are its last axis, onnx's the second; one real channel in the signal.
    "STFT": op(
        "torch.view_as_real(torch.stft(signal[..., 0], frame_length, frame_step, window=window,"
        " center=False, onesided=True, return_complex=True).transpose(1, 2))",
        signal=Real(1, 16, 1),
        frame_step=Value(4),
        window=Real(8),
        frame_length=Value(8),
    ),
    "HannWindow": op("torch.hann_window(size, dtype=torch.float64)", size=Value(8)),
    "HammingWindow": op("torch.hamming_window(size, dtype=torch.float64)", size=Value(8)),
    "BlackmanWindow": op("torch.blackman_window(size, dtype=torch.float64)", size=Value(8)),
    # normalization
    "BatchNormalization": op(
        "F.batch_norm(X, input_mean, input_var, scale, B, training=False)",
        X=Real(2, 3, 2),
        scale=Real(3),
        B=Real(3),
        input_mean=Real(3),
        input_var=Real(3, low=0.5, high=2.0),
    ),
    "InstanceNormalization": op(
        "F.instance_norm(input, weight=scale, bias=B)",
        input=Real(2, 3, 4),
        scale=Real(3),
        B=Real(3),
    ),
    "GroupNormalization": op(
        "F.group_norm(X, 1, scale, bias)", X=Real(2, 3, 4), scale=Real(3), bias=Real(3)
    ),
    "LayerNormalization": op(
        "torch.native_layer_norm(X, [4], Scale, B, 1e-5)", X=Real(2, 4), Scale=Real(4), B=Real(4)
    ),
    "RMSNormalization": op("F.rms_norm(X, [4], scale)", X=Real(2, 4), scale=Real(4)),
    "LpNormalization": op("F.normalize(input, 2.0, -1)", input=Real(2, 3)),
    "MeanVarianceNormalization": op(
        "(X - X.mean((0, 2, 3), keepdim=True))"
        " / torch.sqrt(X.var((0, 2, 3), keepdim=True, unbiased=False) + 1e-9)",
        X=_IMAGE,
    ),
    "Dropout": op(
        "F.dropout(data, ratio, training_mode)",
        data=Real(2, 3),
        ratio=Value(0.5),
        training_mode=Value(False),
    ),
    # losses
    "NegativeLogLikelihoodLoss": op(
        "F.nll_loss(input, target, weight)",
        input=Real(3, 4),
        target=Ints([1, 0, 3]),
        weight=Real(4, low=0.5),
    ),
    "SoftmaxCrossEntropyLoss": op(
        "(F.cross_entropy(scores, labels, weights), torch.log_softmax(scores, 1))",
        scores=Real(3, 4),
        labels=Ints([1, 0, 3]),
        weights=Real(4, low=0.5),
    ),
    # shape and data movement
    "Reshape": op("torch.reshape(data, shape)", data=Real(2, 3), shape=Value([3, 2])),
    "Flatten": op("torch.flatten(input, 1)", input=Real(2, 3, 2)),
    "Transpose": op("data.permute(2, 1, 0)", data=Real(2, 3, 2)),
    "Squeeze": op("torch.squeeze(data, axes)", data=Real(2, 1, 3), axes=Value([1])),
    "Unsqueeze": op("torch.unsqueeze(data, axes[0])", data=Real(2, 3), axes=Value([1])),
    "Expand": op("torch.broadcast_to(input, shape)", input=Real(1, 3), shape=Value([2, 3])),
    "Tile": op("torch.tile(input, repeats)", input=Real(2, 3), repeats=Value([2, 1])),
    "Concat": op("torch.cat(inputs, 0)", inputs=Several(Real(2, 3), Real(1, 3))),
    "Split": op("torch.split(input, split)", input=Real(4, 3), split=Value([1, 3])),
    "Slice": op(
        "torch.ops.aten.slice(data, axes[0], starts[0], ends[0], steps[0])",
        data=Real(4, 3),
        starts=Value([1]),
        ends=Value([3]),
        axes=Value([0]),
        steps=Value([1]),
    ),
    "Gather": op("torch.index_select(data, 0, indices)", data=Real(3, 2), indices=Ints([2, 0])),
    "GatherElements": op(
        "torch.gather(data, 0, indices)", data=Real(3, 2), indices=Ints([[2, 0], [1, 1]])
    ),
    "GatherND": op(
        "data[tuple(indices.unbind(-1))]", data=Real(3, 4), indices=Ints([[0, 1], [2, 3]])
    ),
    "Scatter": op(
        "torch.scatter(data, 0, indices, updates)",
        data=Real(3, 2),
        indices=Ints([[2, 0]]),
        updates=Real(1, 2),
    ),
    "ScatterElements": op(
        "torch.scatter(data, 0, indices, updates)",
        data=Real(3, 2),
        indices=Ints([[2, 0]]),
        updates=Real(1, 2),
    ),
    "ScatterND": op(
        "data.index_put(tuple(indices.unbind(-1)), updates)",
        data=Real(3, 4),
        indices=Ints([[0, 1], [2, 3]]),
        updates=Real(2),
    ),
    "Pad": op(
        "F.pad(data, (pads[1], pads[3], pads[0], pads[2]), value=constant_value)",
        data=Real(2, 3),
        pads=Value([0, 1, 0, 2]),
        constant_value=Value(0.5),
    ),
    "CenterCropPad": op("input_data[1:3, 1:3]", input_data=Real(4, 4), shape=Value([2, 2])),
    "Compress": op("input[condition]", input=Real(3, 2), condition=Bools(3)),
    "Trilu": op("torch.triu(input, k)", input=Real(3, 3), k=Value(0)),
    "OneHot": op(
        "values[0] + (values[1] - values[0]) * F.one_hot(indices, depth)",
        indices=Ints([0, 2]),
        depth=Value(3),
        values=Real(2),
    ),
    "Range": op(
        "torch.arange(start, limit, delta)", start=Value(0.0), limit=Value(3.0), delta=Value(1.0)
    ),
    "ConstantOfShape": op("torch.zeros(input)", input=Value([2, 3])),
    "EyeLike": op("torch.eye(*input.shape, dtype=input.dtype)", input=Real(2, 3)),
    # recurrent: see _recurrent
    "RNN": _recurrent("rnn_tanh", gates=1),
    "GRU": _recurrent("gru", gates=3),
    "LSTM": _recurrent("lstm", gates=4),
    # attention and quantization written out
    "Attention": op(
        "F.scaled_dot_product_attention(Q, K, V, attn_mask)",
        Q=Real(1, 2, 3, 4),
        K=Real(1, 2, 3, 4),
        V=Real(1, 2, 3, 4),
        attn_mask=Real(3, 3),
    ),
    "DequantizeLinear": op(
        "(x.double() - x_zero_point) * x_scale",
        x=Ints([3, -2, 7]),
        x_scale=Real(low=0.5),
        x_zero_point=Ints(1),
    ),
}


RENAMED: dict[str, dict[str, str]] = {
    "BatchNormalization": {"input_mean": "mean", "input_var": "var"},
}
"""Inputs an operator's older versions name otherwise (BatchNormalization-1 to -9 call the
running statistics ``mean`` and ``var``): the call's name, then the older one."""


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self.names.get(node.id, node.id), node.ctx), node)


FLOAT_INPUTS: dict[str, tuple[str, str, TorchOp]] = {
    "DequantizeLinear": (
        "x",
        "float8e4m3fn",
        op(
            "(x.to(torch.float8_e4m3fn).double() - x_zero_point) * x_scale",
            x=Real(3),
            x_scale=Real(low=0.5),
            x_zero_point=Value(0.0),
        ),
    ),
}
"""Versions whose input may hold a floating-point type torch has (DequantizeLinear-19's
``x`` may be float8): (input, element type, the call that feeds it so). The input is a
float64 tensor cast to that type, so autograd sees it; a float8 zero point is 0 by onnx's
definition."""


def _holds(schema: Schema, name: str, element: str) -> bool:
    param = next((p for p in schema.inputs if p.name == name), None)
    if param is None:
        return False
    types = next(
        (c.allowed_types for c in schema.type_constraints if c.name == param.type_str),
        (param.type_str,),
    )
    return any(f"({element})" in t for t in types)


def torch_op(schema: Schema, ops: dict[str, TorchOp] | None = None) -> TorchOp | None:
    """The torch call of ``schema``'s operator (from ``ops``, by default :data:`TORCH_OPS`),
    in the names of this version's inputs, fed a floating-point input where the version
    allows one (:data:`FLOAT_INPUTS`); ``None`` without a mapping."""
    spec = (TORCH_OPS if ops is None else ops).get(schema.name) if not schema.domain else None
    if spec is None:
        return None
    variant = FLOAT_INPUTS.get(schema.name) if spec is TORCH_OPS.get(schema.name) else None
    if variant is not None and _holds(schema, variant[0], variant[1]):
        spec = variant[2]
    own = {p.name for p in schema.inputs}
    names = {
        new: old
        for new, old in RENAMED.get(schema.name, {}).items()
        if new not in own and old in own
    }
    if not names:
        return spec
    tree = _Rename(names).visit(ast.parse(spec.call, mode="eval"))
    inputs = {names.get(k, k): v for k, v in spec.inputs.items()}
    return TorchOp(ast.unparse(tree), inputs)
