"""onnx's schema registry, opened without importing the rest of onnx when that is possible.

The schemas live in onnx's C++ extension module, ``onnx.onnx_cpp2py_export``.
Importing the ``onnx`` package first loads numpy, protobuf and some sixty
Python modules around the extension: three quarters of the time a build
spends before it can read a schema, for nothing the schemas need. So when
nothing in the process has imported onnx yet, :func:`open_registry` loads the
extension from its file under its own name (as ``import onnx`` would) and
reads onnx's version from the distribution's metadata folder, where recent
onnx releases read it too. A later ``import onnx`` (a schema module, the audit's evidence) finds
the extension in ``sys.modules`` and uses it: there is one registry in the
process either way. Anything unusual (onnx built in place, no metadata
folder, an extension that does not load) means importing onnx as usual.

Attribute defaults are serialized ``AttributeProto`` messages. The kinds that
onnx's schemas use (integers, floats, strings and lists of them) are decoded
here from the protobuf wire format, exactly as ``onnx.helper`` reads them;
anything else goes through ``onnx.helper``.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

_EXTENSION = "onnx.onnx_cpp2py_export"
# onnx looks its version up under these distribution names, in this order.
_DISTRIBUTIONS = ("onnx", "onnx_weekly")


@dataclass(frozen=True)
class Registry:
    """What collecting needs from onnx: its ``defs`` functions, version, folder, and ML flag."""

    defs: Any
    version: str
    folder: Path
    ml: bool


def open_registry(onnx_dir: Path | None) -> Registry:
    """The schema registry of the onnx installed in ``onnx_dir`` (None: import onnx to find it)."""
    if "onnx" not in sys.modules and onnx_dir is not None:
        loaded = _load_extension(onnx_dir)
        version = _distribution_version(onnx_dir)
        if loaded is not None and version is not None:
            return Registry(loaded.defs, version, onnx_dir, bool(loaded.ONNX_ML))
    import onnx
    from onnx import defs

    folder = Path(onnx.__file__).parent
    return Registry(defs, onnx.__version__, folder, bool(getattr(onnx, "ONNX_ML", True)))


def _load_extension(onnx_dir: Path) -> ModuleType | None:
    loaded = sys.modules.get(_EXTENSION)
    if loaded is not None:
        return loaded
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = onnx_dir / f"onnx_cpp2py_export{suffix}"
        if path.is_file():
            break
    else:
        return None
    spec = importlib.util.spec_from_file_location(_EXTENSION, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_EXTENSION] = module
    try:
        spec.loader.exec_module(module)
    except Exception:  # whatever stops it here, the plain import path decides
        del sys.modules[_EXTENSION]
        return None
    return module


def _distribution_version(onnx_dir: Path) -> str | None:
    """The version in the name of the metadata folder installed next to the package."""
    for name in _DISTRIBUTIONS:
        found = sorted(onnx_dir.parent.glob(f"{name}-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(name) + 1 : -len(".dist-info")]
    return None


# AttributeProto fields (onnx.proto): number -> (name, wire type)
_FIELDS = {
    1: ("name", 2),
    2: ("f", 5),
    3: ("i", 0),
    4: ("s", 2),
    7: ("floats", 5),
    8: ("ints", 0),
    9: ("strings", 2),
    13: ("doc_string", 2),
    20: ("type", 0),
}
_SKIPPED = {21: 2}  # ref_attr_name: not part of the value
# AttributeType -> the field holding the value, and whether it is a list
_VALUE_FIELDS = {1: ("f", False), 2: ("i", False), 3: ("s", False)}
_VALUE_FIELDS |= {6: ("floats", True), 7: ("ints", True), 8: ("strings", True)}
# What protobuf reads for a single value the message leaves out.
_ZERO = {"f": 0.0, "i": 0, "s": b""}


class _NotSimple(Exception):
    """A message this decoder leaves to protobuf."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise _NotSimple
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _decode(data: bytes) -> dict[str, Any]:
    fields: dict[str, Any] = {"floats": [], "ints": [], "strings": []}
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        name, expected = _FIELDS.get(number, (None, _SKIPPED.get(number)))
        if wire != expected:
            raise _NotSimple  # another field, or a packed list: protobuf's job
        if wire == 0:
            value, pos = _varint(data, pos)
            value = value - (1 << 64) if value >= 1 << 63 else value  # int64
        elif wire == 5:
            if pos + 4 > len(data):
                raise _NotSimple
            (value,) = struct.unpack_from("<f", data, pos)
            pos += 4
        else:
            size, pos = _varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
            if pos > len(data):
                raise _NotSimple
        if name in ("floats", "ints", "strings"):
            fields[name].append(value)
        elif name is not None:
            fields[name] = value
    return fields


def attribute_default(attr: Any) -> tuple[Any, str] | None:
    """The default of an ``OpSchema.Attribute`` as ``onnx.helper`` gives it, with its doc string.

    None when the attribute has no default (onnx leaves the message's name empty).
    """
    data = getattr(attr, "_default_value", None)
    if isinstance(data, bytes):
        try:
            fields = _decode(data)
            if not fields.get("name"):
                return None
            field, many = _VALUE_FIELDS[fields.get("type", 0)]
            value = fields[field] if many else fields.get(field, _ZERO[field])
            return value, fields.get("doc_string", b"").decode("utf-8")
        except (_NotSimple, KeyError, UnicodeDecodeError):
            pass
    from onnx import helper

    proto = attr.default_value
    if not proto.name:
        return None
    return helper.get_attribute_value(proto), proto.doc_string
