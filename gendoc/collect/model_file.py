"""An ONNX model file as plain data: every node with its operator version and the types it is
fed, for checking where the model runs (``gendoc support``).

The model is read without its external data (weights never enter memory) and its types come
from onnx's shape inference. A node whose operator version has a function body in onnx is also
expanded into that function's nodes, typed in turn, because runtimes that expand functions
(onnxruntime) run the function when they have no kernel for the node itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gendoc.errors import GendocError
from gendoc.model.reference import Schema

# How deep functions are expanded: onnx's functions call functions at most a few levels down.
_MAX_DEPTH = 4


class NotAModelError(GendocError):
    """The file is not an ONNX model."""


@dataclass(frozen=True)
class Arg:
    """One value a node reads or writes: its formal parameter, that parameter's type string
    and the value's type (None when shape inference could not tell)."""

    param: str
    type_str: str
    type: str | None


@dataclass(frozen=True)
class NodeUse:
    """One node of the model (or of a function it expands into)."""

    where: str
    domain: str
    op: str
    opset: int | None
    schema: Schema | None
    inputs: tuple[Arg, ...]
    outputs: tuple[Arg, ...]
    function: tuple[NodeUse, ...] | None = None

    @property
    def since_version(self) -> int | None:
        return self.schema.since_version if self.schema else None


@dataclass(frozen=True)
class ModelFile:
    """What the model holds: its IR version, opset imports and nodes (subgraphs included)."""

    path: str
    ir_version: int
    opsets: dict[str, int]
    nodes: tuple[NodeUse, ...] = field(default=())


def _domain(name: str) -> str:
    return "" if name == "ai.onnx" else name


def type_string(proto: Any) -> str | None:
    """A TypeProto in onnx's notation ("tensor(float)", "seq(tensor(int64))"), None if unset."""
    from onnx import TensorProto

    kind = proto.WhichOneof("value")
    if kind in ("tensor_type", "sparse_tensor_type"):
        elem = getattr(proto, kind).elem_type
        if not elem:
            return None
        name = TensorProto.DataType.Name(elem).lower()
        return f"{'tensor' if kind == 'tensor_type' else 'sparse_tensor'}({name})"
    if kind == "sequence_type":
        inner = type_string(proto.sequence_type.elem_type)
        return f"seq({inner})" if inner else None
    if kind == "optional_type":
        inner = type_string(proto.optional_type.elem_type)
        return f"optional({inner})" if inner else None
    if kind == "map_type":
        key = TensorProto.DataType.Name(proto.map_type.key_type).lower()
        value = type_string(proto.map_type.value_type)
        return f"map({key}, {value})" if value else None
    return None


def _formals(params: Any, count: int) -> Iterator[Any]:
    """The formal parameter of each of ``count`` actual values (a variadic one takes the rest)."""
    for index in range(count):
        if index < len(params):
            yield params[index]
        elif params and _is_variadic(params[-1]):
            yield params[-1]
        else:
            yield None


def _is_variadic(param: Any) -> bool:
    from onnx.defs import OpSchema

    return param.option == OpSchema.FormalParameterOption.Variadic


def _args(names: Any, params: Any, types: dict[str, Any]) -> tuple[Arg, ...]:
    found = []
    for name, param in zip(names, _formals(params, len(names)), strict=True):
        if not name or param is None:
            continue
        proto = types.get(name)
        found.append(Arg(param.name, param.type_str, type_string(proto) if proto else None))
    return tuple(found)


class _Reader:
    """Walks graphs and functions, caching each expanded function by what it depends on."""

    def __init__(self, opsets: dict[str, int]) -> None:
        self.opsets = opsets
        self.functions: dict[bytes, tuple[NodeUse, ...] | None] = {}
        self.schemas: dict[tuple[str, str, int], Any] = {}

    def schema(self, domain: str, op: str, opset: int | None) -> Any:
        from onnx import defs

        if opset is None:
            return None
        key = (domain, op, opset)
        if key not in self.schemas:
            try:
                self.schemas[key] = defs.get_schema(op, opset, domain)
            except defs.SchemaError:
                self.schemas[key] = None
        return self.schemas[key]

    def graph(self, graph: Any, types: dict[str, Any], prefix: str, depth: int) -> list[NodeUse]:
        types = dict(types)
        for value in (*graph.input, *graph.value_info, *graph.output):
            if value.type.WhichOneof("value"):
                types[value.name] = value.type
        for init in graph.initializer:
            types.setdefault(init.name, _tensor_type(init.data_type))
        found: list[NodeUse] = []
        for index, node in enumerate(graph.node):
            where = f"{prefix}{node.name or f'#{index}'}"
            found.append(self.node(node, types, where, depth))
            for attr in node.attribute:
                for sub in (attr.g, *attr.graphs) if attr.g.node or attr.graphs else ():
                    found.extend(self.graph(sub, types, f"{where}/{attr.name}/", depth))
        return found

    def node(self, node: Any, types: dict[str, Any], where: str, depth: int) -> NodeUse:
        from gendoc.collect.schemas import convert_schema

        domain = _domain(node.domain)
        opset = self.opsets.get(domain)
        op = self.schema(domain, node.op_type, opset)
        if op is None:
            return NodeUse(where, domain, node.op_type, opset, None, (), ())
        inputs = _args(node.input, op.inputs, types)
        outputs = _args(node.output, op.outputs, types)
        function = None
        if depth < _MAX_DEPTH and (op.has_function or op.has_context_dependent_function):
            function = self.expand(op, node, types, opset, where, depth)
        schema = convert_schema(op)
        return NodeUse(where, domain, node.op_type, opset, schema, inputs, outputs, function)

    def expand(
        self, op: Any, node: Any, types: dict[str, Any], opset: int, where: str, depth: int
    ) -> tuple[NodeUse, ...] | None:
        in_types = [types.get(name) for name in node.input]
        if any(t is None for t, name in zip(in_types, node.input, strict=True) if name):
            return None
        key = b"\0".join(
            [node.SerializeToString(), str(opset).encode()]
            + [t.SerializeToString() if t is not None else b"" for t in in_types]
        )
        if key not in self.functions:
            self.functions[key] = self._expand(op, node, in_types, opset, where, depth)
        return self.functions[key]

    def _expand(
        self, op: Any, node: Any, in_types: list[Any], opset: int, where: str, depth: int
    ) -> tuple[NodeUse, ...] | None:
        from onnx import FunctionProto, helper, shape_inference

        function = FunctionProto()
        plain = op.has_function
        # A function body is kept per opset: the newest at or below the model's is the one used.
        versions = (
            op.function_opset_versions if plain else op.context_dependent_function_opset_versions
        )
        version = max((v for v in versions if v <= opset), default=op.since_version)
        try:
            if plain:
                function.ParseFromString(_serialized(op.get_function_with_opset_version(version)))
            else:
                typed = [t.SerializeToString() for t in in_types if t is not None]
                body = op.get_context_dependent_function_with_opset_version(
                    version, node.SerializeToString(), typed
                )
                function.ParseFromString(_serialized(body))
        except Exception:  # onnx cannot build the body for this node: no expansion known
            return None
        if not function.node:
            return None
        nodes = [_bind_attributes(inner, node, op) for inner in function.node]
        inputs = [
            helper.make_value_info(formal, t)
            for formal, actual, t in zip(function.input, node.input, in_types, strict=False)
            if actual and t is not None
        ]
        outputs = [helper.make_empty_tensor_value_info(name) for name in function.output]
        graph = helper.make_graph(nodes, "function", inputs, outputs)
        imports = {_domain(i.domain): i.version for i in function.opset_import}
        imports.setdefault(_domain(node.domain), opset)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid(d, v) for d, v in imports.items()]
        )
        try:
            inferred = shape_inference.infer_shapes(model).graph
        except Exception:  # onnx's inference fails on this expansion: keep the untyped one
            inferred = graph
        reader = _Reader(imports)
        reader.functions = self.functions
        return tuple(reader.graph(inferred, {}, f"{where}/{op.name}:", depth + 1))


def _serialized(body: Any) -> bytes:
    return body if isinstance(body, bytes) else body.SerializeToString()


def _bind_attributes(inner: Any, node: Any, op: Any) -> Any:
    """A copy of function node ``inner`` with its attribute references replaced by the
    calling node's attributes (or the schema's defaults); unset ones are dropped."""
    from onnx import NodeProto

    given = {attr.name: attr for attr in node.attribute}
    bound = NodeProto()
    bound.CopyFrom(inner)
    del bound.attribute[:]
    for attr in inner.attribute:
        if not attr.ref_attr_name:
            bound.attribute.append(attr)
            continue
        source = given.get(attr.ref_attr_name)
        if source is None:
            default = op.attributes.get(attr.ref_attr_name)
            source = default.default_value if default and default.default_value.type else None
        if source is None:
            continue
        copy = bound.attribute.add()
        copy.CopyFrom(source)
        copy.name = attr.name
    return bound


def _tensor_type(elem_type: int) -> Any:
    from onnx import TypeProto

    proto = TypeProto()
    proto.tensor_type.elem_type = elem_type
    return proto


def read_model(path: Path) -> ModelFile:
    """The model at ``path`` as plain data, read without its external data.

    Raises :class:`NotAModelError` (one line) for a file that is not an ONNX model.
    """
    import onnx
    from google.protobuf.message import DecodeError

    try:
        model = onnx.load(str(path), load_external_data=False)
    except (DecodeError, RuntimeError, ValueError, UnicodeDecodeError) as exc:
        raise NotAModelError(f"{path}: not an ONNX model ({type(exc).__name__})") from None
    except OSError as exc:
        raise NotAModelError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return model_file(model, str(path))


def model_file(model: Any, path: str = "<model>") -> ModelFile:
    """A loaded ModelProto as plain data (see :func:`read_model`)."""
    from onnx import shape_inference

    if not model.ir_version or not model.HasField("graph") or not model.opset_import:
        raise NotAModelError(f"{path}: not an ONNX model (no graph, IR version or opset)")
    # When onnx's inference refuses the model, the types stay those the model declares.
    with contextlib.suppress(Exception):
        model = shape_inference.infer_shapes(model)
    if model.functions:
        from onnx import inliner

        model = inliner.inline_local_functions(model)
    opsets = {_domain(i.domain): i.version for i in model.opset_import}
    nodes = _Reader(opsets).graph(model.graph, {}, "", 0)
    return ModelFile(path, model.ir_version, opsets, tuple(nodes))
