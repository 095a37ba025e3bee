"""Whether a runtime has a kernel for one node: the operator version the model selects, fed
the types the model feeds it; otherwise whether it runs through its function.

The answers are worded for what is known: a kernel table says a kernel is *registered*, not
that it computes the right result; what cannot be told (a type shape inference left open) is
*unknown*, never *unsupported*.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace

from gendoc.collect.model_file import Arg, NodeUse
from gendoc.runtime.ort_kernels import (
    PROVIDER,
    RESOLVED_AT_LOAD,
    Kernel,
    KernelTable,
    provider_label,
)

_FLOAT16 = "tensor(float16)"
_FLOAT = "tensor(float)"


class Status(enum.StrEnum):
    """What a runtime's kernel table says about one node."""

    REGISTERED = "registered"
    IN_FLOAT = "registered for float: float16 is cast"
    FUNCTION = "runs through its function"
    UNKNOWN = "unknown"
    NO_KERNEL = "no kernel for these types"
    NO_VERSION = "no kernel for this version"
    UNKNOWN_OPERATOR = "operator unknown to the runtime"
    UNKNOWN_DOMAIN = "domain unknown to the runtime"
    INVALID_TYPE = "a type onnx's schema does not allow"
    OPSET_TOO_NEW = "opset newer than the runtime reads"
    ON_CPU = "no kernel in this provider: runs on the CPU provider"

    @property
    def runs(self) -> bool | None:
        """True where the node runs, False where the runtime refuses it, None: unknown."""
        if self is Status.UNKNOWN:
            return None
        return self in (Status.REGISTERED, Status.IN_FLOAT, Status.FUNCTION, Status.ON_CPU)


@dataclass(frozen=True)
class Answer:
    """One runtime's answer for one node, with what it rests on."""

    status: Status
    detail: str
    blocking: tuple[str, ...] = ()


def _bound_type(kernel_constraint: str, args: Iterable[Arg]) -> tuple[bool, str | None]:
    """The type a constraint is bound to: onnxruntime looks at the inputs, then the outputs,
    by the formal parameter's type string (or its name)."""
    for arg in args:
        if kernel_constraint in (arg.type_str, arg.param):
            return True, arg.type
    return False, None


def match_types(kernel: Kernel, node: NodeUse) -> bool | None:
    """Whether ``kernel`` takes the types ``node`` is fed (None: a type is not known)."""
    unknown = False
    for constraint, allowed in kernel.types:
        found, kind = _bound_type(constraint, (*node.inputs, *node.outputs))
        if not found:
            continue
        if kind is None:
            unknown = True
        elif kind not in allowed:
            return False
    return None if unknown else True


def in_float(node: NodeUse) -> NodeUse:
    """``node`` with float16 values fed as float: onnxruntime's CPU provider inserts casts
    around a node that has a float kernel but none for float16 (InsertCastTransformer,
    onnxruntime/core/optimizer/insert_cast_transformer.cc)."""

    def cast(args: tuple[Arg, ...]) -> tuple[Arg, ...]:
        return tuple(replace(a, type=_FLOAT) if a.type == _FLOAT16 else a for a in args)

    return replace(node, inputs=cast(node.inputs), outputs=cast(node.outputs))


def disallowed(node: NodeUse) -> list[str]:
    """The values fed a type that the operator's schema does not allow (an invalid model,
    which a runtime that checks the model refuses before it looks for kernels)."""
    if node.schema is None:
        return []
    allowed = {c.name: c.allowed_types for c in node.schema.type_constraints}
    found = []
    for arg in (*node.inputs, *node.outputs):
        kinds = allowed.get(arg.type_str, (arg.type_str,) if "(" in arg.type_str else None)
        if arg.type is not None and kinds is not None and arg.type not in kinds:
            found.append(f"{arg.param}: {arg.type}")
    return found


def _fed(node: NodeUse) -> str:
    kinds = {arg.type_str: arg.type or "?" for arg in (*node.inputs, *node.outputs)}
    return ", ".join(f"{name}={kind}" for name, kind in sorted(kinds.items()))


def check_node(table: KernelTable, node: NodeUse) -> Answer:
    """``table``'s answer for ``node`` (at the opset its model or function imports)."""
    if node.domain not in table.opsets:
        return Answer(Status.UNKNOWN_DOMAIN, f"domain {node.domain or 'ai.onnx'!r}")
    opset = node.opset
    newest = table.opsets[node.domain]
    if opset is None:
        return Answer(Status.UNKNOWN_DOMAIN, "the model imports no opset for it")
    if opset > newest:
        return Answer(Status.OPSET_TOO_NEW, f"opset {opset}, newest read {newest}")
    since = table.since_version(node.domain, node.op, opset)
    if since is None:
        return Answer(Status.UNKNOWN_OPERATOR, f"{node.op} at opset {opset}")
    invalid = disallowed(node)
    if invalid:
        return Answer(Status.INVALID_TYPE, f"{node.op}-{since} fed {', '.join(invalid)}")
    if (node.domain, node.op) in RESOLVED_AT_LOAD:
        return Answer(Status.REGISTERED, f"{node.op}-{since}, made an initializer on loading")
    kernels = [k for k in table.kernels.get((node.domain, node.op), ()) if k.covers(since)]
    matches = [match_types(k, node) for k in kernels]
    if True in matches:
        return Answer(Status.REGISTERED, f"{node.op}-{since}")
    if None in matches:
        return Answer(Status.UNKNOWN, f"{node.op}-{since}: a type shape inference left open")
    as_float = in_float(node) if table.provider == PROVIDER else node
    if as_float != node and any(match_types(k, as_float) for k in kernels):
        return Answer(Status.IN_FLOAT, f"{node.op}-{since}")
    if node.function is not None:
        inner = check_nodes(table, node.function)
        refused = [f"{n.where} ({a.status})" for n, a in inner if a.status.runs is False]
        if not refused:
            unknown = any(a.status.runs is None for _, a in inner)
            status = Status.UNKNOWN if unknown else Status.FUNCTION
            return Answer(status, f"{node.op}-{since} through its function")
        why = Status.NO_KERNEL if kernels else Status.NO_VERSION
        return Answer(why, f"{node.op}-{since}; its function does not run either", tuple(refused))
    if kernels:
        return Answer(Status.NO_KERNEL, f"{node.op}-{since} fed {_fed(node)}")
    return Answer(Status.NO_VERSION, f"{node.op}-{since}")


def check_on_provider(table: KernelTable, cpu: KernelTable, node: NodeUse) -> Answer:
    """``table``'s answer for ``node``, a provider other than CPU: where it has no kernel,
    onnxruntime assigns the node to its CPU provider (the default; the session option
    ``session.disable_cpu_ep_fallback`` turns it off), so the CPU table answers then."""
    if (node.domain, node.op) in RESOLVED_AT_LOAD:
        return check_node(cpu, node)
    found = check_node(table, node)
    if found.status.runs is not False:
        where = f"onnxruntime {table.version}'s {provider_label(table.provider)} table"
        return replace(found, detail=f"{found.detail} in {where}")
    on_cpu = check_node(cpu, node)
    detail = f"{found.detail}; on {cpu.label}: {on_cpu.status} ({on_cpu.detail})"
    if on_cpu.status.runs is True:
        return Answer(Status.ON_CPU, detail)
    return replace(on_cpu, detail=detail)


def check_nodes(table: KernelTable, nodes: Iterable[NodeUse]) -> list[tuple[NodeUse, Answer]]:
    """``table``'s answer for each of ``nodes``."""
    return [(node, check_node(table, node)) for node in nodes]
