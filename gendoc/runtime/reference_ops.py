"""onnx's reference evaluator (``onnx.reference``) in the installed onnx, as a runtime.

The evaluator is numpy code, one class per operator version range; it does not register
types, so its answer is whether the operator version is implemented. Like onnxruntime it runs
an operator it has no class for through the operator's function body.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from gendoc.collect.model_file import NodeUse
from gendoc.runtime.answers import Answer, Status

NAME = "onnx.reference"
# The evaluator's modules per domain: onnx.reference.ops and its submodules
_MODULES = {
    "": "onnx.reference.ops",
    "ai.onnx.ml": "onnx.reference.ops.aionnxml",
    "ai.onnx.preview.training": "onnx.reference.ops.aionnx_preview_training",
}


@cache
def implemented(domain: str, op: str, opset: int) -> bool:
    """Whether the installed onnx's evaluator has a class for ``op`` at ``opset``."""
    import importlib

    module = _MODULES.get(domain)
    if module is None:
        return False
    load_op = importlib.import_module(module).load_op
    try:
        load_op(domain, op, opset)
    except Exception:  # the evaluator raises a bare ValueError/RuntimeError for "no class"
        return False
    return True


def check_node(node: NodeUse) -> Answer:
    """The reference evaluator's answer for ``node``."""
    if node.schema is None or node.opset is None:
        return Answer(Status.UNKNOWN_OPERATOR, f"{node.op} is not in the installed onnx")
    name = f"{node.op}-{node.since_version}"
    if implemented(node.domain, node.op, node.opset):
        return Answer(Status.REGISTERED, f"{name} implemented")
    if node.function is not None:
        refused = [
            f"{n.where} ({a.status})" for n, a in check_nodes(node.function) if not a.status.runs
        ]
        if not refused:
            return Answer(Status.FUNCTION, f"{name} through its function")
        return Answer(
            Status.NO_VERSION, f"{name}; its function does not run either", tuple(refused)
        )
    return Answer(Status.NO_VERSION, f"{name} not implemented")


def check_nodes(nodes: Iterable[NodeUse]) -> list[tuple[NodeUse, Answer]]:
    return [(node, check_node(node)) for node in nodes]
