"""Snapshots: the model of one onnx installation as a stable JSON file.

A snapshot lets ``gendoc diff`` compare two onnx releases (or two states of
a project's custom schemas) without both being installed at once, so a
pull request can be compared with its base in CI. It holds everything in
:class:`~gendoc.model.Reference` except examples and sample
implementations, which are prose for readers and would only make diffs
noisy. The format is described by ``snapshot.schema.json`` beside this
module; bump :data:`FORMAT_VERSION` whenever a change would make an older
gendoc misread a newer file.

Keys are sorted and every list has a fixed order (domains, operators and
versions sorted; parameters and type constraints in schema order, since
their position is meaningful; attributes sorted by name), so two
snapshots of the same schemas are byte-identical.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from enum import Enum
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

from gendoc.errors import UsageError
from gendoc.model import (
    Attribute,
    Differentiability,
    Option,
    Parameter,
    Reference,
    Schema,
    TypeConstraint,
    schema_sort_key,
)
from gendoc.write import write_documents

FORMAT = "gendoc-snapshot"
FORMAT_VERSION = 1
INSTALLED = "installed"
"""The word that stands for the onnx of the running environment instead of a file."""

SCHEMA_FILE = Path(__file__).with_name("snapshot.schema.json")

_E = TypeVar("_E", bound=Enum)


# --- model -> plain data -------------------------------------------------------------------


def _parameter_to_dict(param: Parameter) -> dict[str, Any]:
    return {
        "name": param.name,
        "type": param.type_str,
        "description": param.description,
        "option": param.option.value,
        "differentiability": param.differentiability.value,
        "is_homogeneous": param.is_homogeneous,
        "min_arity": param.min_arity,
    }


def _attribute_to_dict(attr: Attribute) -> dict[str, Any]:
    return {
        "name": attr.name,
        "type": attr.type,
        "description": attr.description,
        "required": attr.required,
        "default": attr.default,
    }


def _schema_to_dict(schema: Schema) -> dict[str, Any]:
    return {
        "since_version": schema.since_version,
        "doc": schema.doc,
        "deprecated": schema.deprecated,
        "experimental": schema.experimental,
        "is_function": schema.is_function,
        "function_versions": list(schema.function_versions),
        "attributes": [
            _attribute_to_dict(a) for a in sorted(schema.attributes, key=attrgetter("name"))
        ],
        "inputs": [_parameter_to_dict(p) for p in schema.inputs],
        "outputs": [_parameter_to_dict(p) for p in schema.outputs],
        "type_constraints": [
            {
                "name": tc.name,
                "allowed_types": list(tc.allowed_types),
                "description": tc.description,
            }
            for tc in schema.type_constraints
        ],
        "min_inputs": schema.min_inputs,
        "max_inputs": schema.max_inputs,
        "min_outputs": schema.min_outputs,
        "max_outputs": schema.max_outputs,
    }


def to_dict(reference: Reference) -> dict[str, Any]:
    """The snapshot of a reference as plain JSON data, in its fixed order."""
    domains = []
    for domain in reference.domains:
        operators = [
            {
                "name": op.name,
                "versions": [_schema_to_dict(s) for s in sorted(op.versions, key=schema_sort_key)],
            }
            for op in sorted(reference.operators(domain), key=lambda op: op.name)
        ]
        domains.append({"domain": domain, "operators": operators})
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "onnx_version": reference.onnx_version,
        "domains": domains,
    }


def dumps(reference: Reference) -> str:
    """The snapshot text: sorted keys, two-space indent, UTF-8 as is, final newline."""
    return json.dumps(to_dict(reference), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dump_snapshot(reference: Reference, output: Path | None) -> int:
    """Write the snapshot to ``output`` (atomically, untouched if equal) or to stdout.

    Returns the exit code of ``gendoc export``.
    """
    text = dumps(reference)
    if output is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()
        return 0
    if output.is_dir():
        raise UsageError(f"output is a folder, not a file: {output}")
    written = write_documents(output.parent, {output.name: text})
    print(f"{'wrote' if written else 'unchanged'} {output}", file=sys.stderr)
    return 0


# --- plain data -> model -------------------------------------------------------------------


class _Invalid(Exception):
    """Raised inside the reader with the JSON path of the offending value."""


_JSON_NAMES: dict[type, str] = {
    type(None): "null",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
}


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    """``isinstance``, except that JSON true and false do not pass for numbers."""
    kinds = _types(kind)
    return isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))


def _mismatch(where: str, value: Any, kind: type | tuple[type, ...]) -> _Invalid:
    expected = " or ".join(_JSON_NAMES[t] for t in _types(kind))
    got = _JSON_NAMES.get(type(value), type(value).__name__)
    return _Invalid(f"{where}: expected {expected}, got {got}")


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise _Invalid(f"{where}: missing key {key!r}")
    if not _is(data[key], kind):
        raise _mismatch(f"{where}.{key}", data[key], kind)
    return data[key]


def _items(data: Mapping[str, Any], key: str, kind: type, where: str) -> tuple[Any, ...]:
    """The values of a list field, each checked against ``kind``."""
    values = _field(data, key, list, where)
    for i, value in enumerate(values):
        if not _is(value, kind):
            raise _mismatch(f"{where}.{key}[{i}]", value, kind)
    return tuple(values)


def _objects(data: Mapping[str, Any], key: str, where: str) -> Iterable[tuple[str, dict]]:
    """The objects of a list field, each with its JSON path for messages."""
    for i, item in enumerate(_items(data, key, dict, where)):
        yield f"{where}.{key}[{i}]", item


def _enum(data: Mapping[str, Any], key: str, enum: type[_E], where: str) -> _E:
    value = _field(data, key, str, where)
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(m.value for m in enum)
        raise _Invalid(f"{where}.{key}: {value!r} is not one of {allowed}") from None


def _parameter_from_dict(data: Mapping[str, Any], where: str) -> Parameter:
    return Parameter(
        name=_field(data, "name", str, where),
        type_str=_field(data, "type", str, where),
        description=_field(data, "description", str, where),
        option=_enum(data, "option", Option, where),
        differentiability=_enum(data, "differentiability", Differentiability, where),
        is_homogeneous=_field(data, "is_homogeneous", bool, where),
        min_arity=_field(data, "min_arity", int, where),
    )


def _schema_from_dict(domain: str, name: str, data: Mapping[str, Any], where: str) -> Schema:
    return Schema(
        domain=domain,
        name=name,
        since_version=_field(data, "since_version", int, where),
        doc=_field(data, "doc", str, where),
        deprecated=_field(data, "deprecated", bool, where),
        experimental=_field(data, "experimental", bool, where),
        is_function=_field(data, "is_function", bool, where),
        function_versions=_items(data, "function_versions", int, where),
        attributes=tuple(
            Attribute(
                name=_field(a, "name", str, path),
                type=_field(a, "type", str, path),
                description=_field(a, "description", str, path),
                required=_field(a, "required", bool, path),
                default=_field(a, "default", (str, type(None)), path),
            )
            for path, a in _objects(data, "attributes", where)
        ),
        inputs=tuple(_parameter_from_dict(p, path) for path, p in _objects(data, "inputs", where)),
        outputs=tuple(
            _parameter_from_dict(p, path) for path, p in _objects(data, "outputs", where)
        ),
        type_constraints=tuple(
            TypeConstraint(
                name=_field(tc, "name", str, path),
                allowed_types=_items(tc, "allowed_types", str, path),
                description=_field(tc, "description", str, path),
            )
            for path, tc in _objects(data, "type_constraints", where)
        ),
        min_inputs=_field(data, "min_inputs", int, where),
        max_inputs=_field(data, "max_inputs", (int, type(None)), where),
        min_outputs=_field(data, "min_outputs", int, where),
        max_outputs=_field(data, "max_outputs", (int, type(None)), where),
    )


def _check_format(data: Any) -> None:
    """Reject files that are not snapshots, or snapshots this gendoc cannot read."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Invalid(f'not a gendoc snapshot (no "format": "{FORMAT}" at the top)')
    version = _field(data, "format_version", int, "$")
    if version > FORMAT_VERSION:
        raise _Invalid(
            f"snapshot format version {version} is newer than this gendoc reads "
            f"({FORMAT_VERSION}); upgrade gendoc"
        )
    if version != FORMAT_VERSION:
        raise _Invalid(
            f"snapshot format version {version} is not supported (this gendoc reads "
            f"{FORMAT_VERSION}); export the snapshot again"
        )


def from_dict(data: Any) -> Reference:
    """Rebuild a Reference from snapshot data; raise UsageError naming the bad value."""
    try:
        _check_format(data)
        schemas = [
            _schema_from_dict(
                _field(d, "domain", str, dpath),
                _field(op, "name", str, opath),
                version,
                vpath,
            )
            for dpath, d in _objects(data, "domains", "$")
            for opath, op in _objects(d, "operators", dpath)
            for vpath, version in _objects(op, "versions", opath)
        ]
        onnx_version = _field(data, "onnx_version", str, "$")
        _check_unique(schemas)
    except _Invalid as exc:
        raise UsageError(str(exc)) from None
    return Reference(onnx_version=onnx_version, schemas=tuple(sorted(schemas, key=schema_sort_key)))


def _check_unique(schemas: Iterable[Schema]) -> None:
    """A version listed twice would make every comparison ambiguous."""
    seen: set[tuple[str, str, int]] = set()
    for schema in schemas:
        key = schema_sort_key(schema)
        if key in seen:
            raise _Invalid(f"{schema.versioned_name} appears more than once")
        seen.add(key)


def _json_error(text: str, exc: json.JSONDecodeError) -> str:
    """Say "truncated" when the text stops mid-value: a half-copied file is common in CI."""
    content = text.rstrip()
    if not content:
        return "the file is empty"
    unterminated_string = (
        exc.msg.startswith("Unterminated string") and "\n" not in content[exc.pos :]
    )
    if exc.pos >= len(content) or unterminated_string:
        last_line = content.count("\n") + 1
        return f"the JSON ends early at line {last_line}; the file looks truncated"
    return f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"


def load_snapshot(path: Path) -> Reference:
    """Read a snapshot file; every way it can be unusable is one UsageError line."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"snapshot file not found: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"snapshot path is a folder, not a file: {path}") from None
    except OSError as exc:
        raise UsageError(f"cannot read snapshot {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a gendoc snapshot (the file is not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: {_json_error(text, exc)}") from None
    except RecursionError:
        raise UsageError(f"{path}: not a gendoc snapshot (nested too deeply)") from None
    try:
        return from_dict(data)
    except UsageError as exc:
        # Names from the file end up in the message; keep it on one line whatever they hold.
        raise UsageError(" ".join(f"{path}: {exc}".splitlines())) from None


def load_reference(source: str, schema_modules: Iterable[str] = ()) -> Reference:
    """The Reference behind a ``gendoc diff`` argument: a snapshot file or ``installed``.

    ``installed`` collects the onnx of this environment, after importing
    ``schema_modules``, exactly as ``gendoc export`` would snapshot it. A
    file that happens to be named ``installed`` can be given as
    ``./installed``.
    """
    if source == INSTALLED:
        from gendoc.collect import collect

        return collect(schema_modules, with_examples=False)
    return load_snapshot(Path(source))
