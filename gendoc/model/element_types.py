"""What a parameter's type string allows: element types, and whether any is floating-point.

Read by the lints (a tag on a value that holds no floating-point number),
by the evidence (a source that differentiates floating-point tensors only,
the decisions the schema itself makes) and by the probe plan: a fact of the
model, so every later stage asks it here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gendoc.model.reference import Parameter, Schema

_WRAPPERS = frozenset({"tensor", "seq", "sequence", "optional", "map", "sparse_tensor"})
_ATOM = re.compile(r"[a-z][a-z0-9_]*")


def element_types(type_str: str) -> set[str]:
    """The element types inside a type string: ``seq(tensor(float))`` -> ``{"float"}``.

    A map's key type is included; no map key is a floating-point type, so it
    never turns a float-free type into a floating one.
    """
    return set(_ATOM.findall(type_str)) - _WRAPPERS


def is_floating(element: str) -> bool:
    """Whether an element type holds real or complex floating-point values.

    Covers the float8/float4/float6 families by prefix, so a type onnx adds
    later in one of those families counts without a change here.
    """
    return element == "double" or element.startswith(("float", "bfloat", "complex"))


def allowed_types(schema: Schema, param: Parameter) -> tuple[str, ...] | None:
    """The types a parameter may take, or ``None`` when its type string is unknown.

    ``type_str`` is either a type parameter of the schema or a concrete type.
    """
    for constraint in schema.type_constraints:
        if constraint.name == param.type_str:
            return constraint.allowed_types
    if "(" in param.type_str:
        return (param.type_str,)
    return None


def holds_float(types: Iterable[str]) -> bool:
    return any(is_floating(e) for t in types for e in element_types(t))
