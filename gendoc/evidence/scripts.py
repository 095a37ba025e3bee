"""Standalone PyTorch scripts in the guide's Method 1 style, one per operator and input.

A reviewer pastes the script and runs it: it builds the inputs (the same
builders and seed as :mod:`gendoc.evidence.torch_source`, written out as
literals), calls the torch expression of
:data:`gendoc.evidence.torch_ops.TORCH_OPS`, back-propagates a ones
gradient through every float output and prints the gradient of the input.
Needs only torch; gendoc is not imported by the script.
"""

from __future__ import annotations

import numpy as np

from gendoc.evidence.torch_ops import Bools, Builder, Ints, Real, Several, Value, torch_op
from gendoc.model.reference import Schema


def _literal(builder: Builder, rng: np.random.Generator, grad: bool) -> str:
    if isinstance(builder, Real):
        values = np.round(rng.uniform(builder.low, builder.high, builder.shape), 4).tolist()
        return f"torch.tensor({values!r}, dtype=torch.float64, requires_grad={grad})"
    if isinstance(builder, Several):
        return "[" + ", ".join(_literal(item, rng, grad) for item in builder.items) + "]"
    if isinstance(builder, Ints):
        return f"torch.tensor({builder.values!r}, dtype=torch.int64)"
    if isinstance(builder, Bools):
        return f"torch.tensor({(rng.random(builder.shape) < 0.5).tolist()!r})"
    assert isinstance(builder, Value)
    return repr(builder.value)


def differentiable_inputs(schema: Schema) -> list[str]:
    """The inputs a script can be written for: float tensors of the torch call."""
    spec = torch_op(schema)
    if spec is None:
        return []
    return [p.name for p in schema.inputs if isinstance(spec.inputs.get(p.name), Real | Several)]


def method1_script(schema: Schema, input_name: str, seed: int = 0) -> str:
    """The script showing the gradient of ``schema``'s output w.r.t. ``input_name``."""
    if input_name not in differentiable_inputs(schema):
        raise ValueError(f"no torch script for input {input_name!r} of {schema.name}")
    spec = torch_op(schema)
    assert spec is not None
    rng = np.random.default_rng(seed)
    lines = [
        f"# ONNX {schema.name}-{schema.since_version}: is input {input_name!r} differentiable?",
        "import functools",
        "",
        "import torch",
        "import torch.nn.functional as F",
        "",
        "reduce = functools.reduce",
    ]
    for name, builder in spec.inputs.items():
        lines.append(f"{name} = {_literal(builder, rng, name == input_name)}")
    lines += [
        "",
        f"result = {spec.call}",
        "outputs = result if isinstance(result, (tuple, list)) else (result,)",
        "# Back-propagate a ones gradient from every float output that torch tracks.",
        "tracked = [y for y in outputs if y.is_floating_point() and y.requires_grad]",
        "torch.autograd.backward(tracked, [torch.ones_like(y) for y in tracked])",
        f"grads = {input_name} if isinstance({input_name}, list) else [{input_name}]",
        "for grad in grads:",
        f"    print({input_name!r}, 'gradient:', grad.grad)",
        "",
    ]
    return "\n".join(lines)
