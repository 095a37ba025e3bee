"""Collect: turn the schemas registered in onnx into the plain model.

This is the only module that touches ``onnx.defs`` objects (the registry
they come from is opened by :mod:`gendoc.collect.registry`). Values that a
future onnx may add (a new differentiation category, option or support
level) degrade to the closest safe value with a warning instead of failing.
"""

from __future__ import annotations

import importlib
import math
import os
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from gendoc.collect.examples import examples_of, onnx_folder, read_examples, read_samples
from gendoc.collect.registry import attribute_default, open_registry
from gendoc.console import stdout_to_stderr
from gendoc.errors import UsageError

try:
    REGISTRY = open_registry(onnx_folder())
except ModuleNotFoundError as exc:  # onnx is an extra: see MINIMUM_ONNX below
    raise UsageError(
        "onnx is not installed: pip install 'gendoc[onnx]', or onnx-weekly for onnx's main branch"
    ) from exc

from gendoc.collect.background import Background
from gendoc.model.reference import (
    Attribute,
    Differentiability,
    FunctionBody,
    Option,
    Parameter,
    Reference,
    Schema,
    SchemaDetails,
    SchemaKey,
    TypeConstraint,
    domain_key,
    domain_label,
    schema_sort_key,
)

# onnx is an extra (gendoc[onnx]) so that installing gendoc next to onnx-weekly,
# onnx's development build under another distribution name, keeps that build.
# Without either one, or with an onnx older than this, every command that reads
# schemas stops with one line.
MINIMUM_ONNX = (1, 16)


def onnx_release(version: str) -> tuple[int, int]:
    """(major, minor) of an onnx version string: '1.24.0.dev20261026' -> (1, 24)."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match[1]), int(match[2])) if match else (0, 0)


defs = REGISTRY.defs
if onnx_release(REGISTRY.version) < MINIMUM_ONNX:
    raise UsageError(
        f"onnx {REGISTRY.version} is too old: gendoc needs onnx >= "
        f"{'.'.join(map(str, MINIMUM_ONNX))} (pip install 'gendoc[onnx]')"
    )


_DIFFERENTIABILITY = {
    "Differentiable": Differentiability.DIFFERENTIABLE,
    "NonDifferentiable": Differentiability.NON_DIFFERENTIABLE,
    "Unknown": Differentiability.UNDEFINED,
}
_OPTION = {"Single": Option.SINGLE, "Optional": Option.OPTIONAL, "Variadic": Option.VARIADIC}
_E = TypeVar("_E", Differentiability, Option)


# The enum members of the installed onnx, looked up by identity first: the
# by-name path below only runs for values this code has never seen.
_KNOWN_CATEGORIES = {
    getattr(defs.OpSchema.DifferentiationCategory, name): value
    for name, value in _DIFFERENTIABILITY.items()
    if hasattr(defs.OpSchema.DifferentiationCategory, name)
}


class UnknownValueWarning(UserWarning):
    """An onnx enum value that this version of gendoc does not know."""


def _enum_name(value: Any) -> str:
    return getattr(value, "name", str(value).rsplit(".", 1)[-1])


def _by_name(value: Any, table: Mapping[str, _E], fallback: _E, where: str, what: str) -> _E:
    """The member of ``table`` named like onnx's enum ``value``; unknown: ``fallback``, warned."""
    name = _enum_name(value)
    try:
        return table[name]
    except KeyError:
        warnings.warn(
            f"{where}: unknown {what} {name!r}, shown as {fallback.value}",
            UnknownValueWarning,
            stacklevel=3,
        )
        return fallback


def differentiability_of(category: Any, where: str) -> Differentiability:
    """Map onnx's DifferentiationCategory; unknown values become undefined."""
    known = _KNOWN_CATEGORIES.get(category)
    if known is not None:
        return known
    fallback = Differentiability.UNDEFINED
    return _by_name(category, _DIFFERENTIABILITY, fallback, where, "differentiation category")


def option_of(option: Any, where: str) -> Option:
    """Map onnx's FormalParameterOption; unknown values become single."""
    return _by_name(option, _OPTION, Option.SINGLE, where, "parameter option")


def round_like_numpy(value: float, decimals: int) -> float:
    """``numpy.round`` of a float, bit for bit: scale, round half to even, scale back."""
    if not math.isfinite(value):
        return value
    scale = 10.0**decimals
    scaled = value * scale
    # round() gives an int, which has no -0: numpy keeps the sign of a value rounded to zero
    return math.copysign(float(round(scaled)), scaled) / scale


def _format_default_item(value: Any) -> str:
    """Format one default value exactly as onnx's gen_doc.py does (``str(np.round(v, 5))``)."""
    if isinstance(value, float):
        formatted = repr(round_like_numpy(value, 5))
        if len(formatted) > 10:
            formatted = f"({value:e})"
        return formatted
    if isinstance(value, bytes | bytearray):
        return value.decode("utf-8")
    return str(value)


def _attribute(attr: Any) -> Attribute:
    default = None
    found = None if attr.required else attribute_default(attr)
    if found is not None:
        value, doc = found
        if isinstance(value, list):
            shown = str([_format_default_item(v) for v in value])
        else:
            shown = _format_default_item(value)
        default = f"{shown}{doc}"
    type_name = _enum_name(attr.type).lower()
    return Attribute(
        name=attr.name,
        type=type_name,
        description=attr.description,
        required=bool(attr.required),
        default=default,
    )


def _parameter(param: Any, where: str) -> Parameter:
    return Parameter(
        name=param.name,
        type_str=param.type_str,
        description=param.description,
        option=option_of(param.option, f"{where} {param.name}"),
        differentiability=differentiability_of(
            param.differentiation_category, f"{where} {param.name}"
        ),
        is_homogeneous=bool(param.is_homogeneous),
        min_arity=int(getattr(param, "min_arity", 1)),
    )


def _bound(value: int) -> int | None:
    return None if defs.OpSchema.is_infinite(value) else int(value)


def convert_schema(op: Any) -> Schema:
    """Convert one ``onnx.defs.OpSchema`` into a :class:`Schema`."""
    where = f"{op.domain or 'ai.onnx'}.{op.name}-{op.since_version}"
    is_function = bool(op.has_function or op.has_context_dependent_function)
    function_versions: Sequence[int] = ()
    if is_function:
        function_versions = getattr(op, "all_function_opset_versions", ())
    return Schema(
        domain=op.domain,
        name=op.name,
        since_version=int(op.since_version),
        doc=op.doc or "",
        deprecated=bool(op.deprecated),
        experimental=_enum_name(op.support_level) == "EXPERIMENTAL",
        is_function=is_function,
        function_versions=tuple(int(v) for v in function_versions),
        attributes=tuple(_attribute(a) for _, a in sorted(op.attributes.items())),
        inputs=tuple(_parameter(p, where) for p in op.inputs),
        outputs=tuple(_parameter(p, where) for p in op.outputs),
        type_constraints=tuple(
            TypeConstraint(
                name=tc.type_param_str,
                allowed_types=tuple(tc.allowed_type_strs),
                description=tc.description,
            )
            for tc in op.type_constraints
        ),
        min_inputs=int(op.min_input),
        max_inputs=_bound(op.max_input),
        min_outputs=int(op.min_output),
        max_outputs=_bound(op.max_output),
    )


def source_in_onnx(file: str, line: int) -> tuple[str, int] | None:
    """Where a schema is defined, relative to onnx's repository, if it is one of onnx's files.

    onnx records the path of the machine that built it (``/project/onnx/defs/nn/defs.cc``);
    what follows its last ``onnx/defs/`` is the same in every build. A schema registered
    from anywhere else (a project's own C++ or Python) has no place in onnx's repository.
    """
    parts = file.replace("\\", "/").split("/")
    starts = [i for i in range(len(parts) - 1) if parts[i : i + 2] == ["onnx", "defs"]]
    if not starts or line <= 0:
        return None
    return "/".join(parts[starts[-1] :]), line


def schema_sources() -> dict[SchemaKey, tuple[str, int]]:
    """Where each installed schema of onnx's own is defined in onnx's repository
    (``onnx/defs/math/defs.cc`` and its line), by (domain, name, since_version): what
    ``gendoc suggest`` edits in a checkout."""
    found = {}
    for key, places in _registered().items():
        located = source_in_onnx(*places[0])
        if located is not None:
            found[key] = located
    return found


def function_bodies(op: Any) -> tuple[FunctionBody, ...]:
    """The printed body of a function operator for each opset version, versions sharing text
    grouped (``MeanVarianceNormalization-13`` has one body for opset 13 and another from 18).
    """
    import onnx  # the printer and protobuf are only needed for the site's details
    from onnx import printer

    grouped: dict[str, list[int]] = {}
    for version in sorted(int(v) for v in op.function_opset_versions):
        proto = onnx.FunctionProto.FromString(op.get_function_with_opset_version(version))
        grouped.setdefault(printer.to_text(proto), []).append(version)
    return tuple(FunctionBody(tuple(versions), text) for text, versions in grouped.items())


def schema_details(op: Any) -> SchemaDetails:
    """What the site shows about one ``onnx.defs.OpSchema`` beyond its interface."""
    return SchemaDetails(
        has_inference=bool(op.has_type_and_shape_inference_function),
        source=source_in_onnx(op.file, int(op.line)),
        function_bodies=function_bodies(op) if op.has_function else (),
        context_dependent=bool(op.has_context_dependent_function),
    )


def _registered() -> dict[SchemaKey, list[tuple[str, int]]]:
    """Every registered schema by (domain, name, version), with where each was defined.

    ``ai.onnx`` counts as the default domain: onnx stores it as a separate
    domain, but readers (and gendoc's ``--domain``) take it for ``""``.
    """
    found: dict[SchemaKey, list[tuple[str, int]]] = {}
    for op in defs.get_all_schemas_with_history():
        key = (domain_key(op.domain), op.name, int(op.since_version))
        found.setdefault(key, []).append((op.file, int(op.line)))
    return found


def _overridden(
    before: dict[SchemaKey, list[tuple[str, int]]],
    after: dict[SchemaKey, list[tuple[str, int]]],
) -> str | None:
    """What an import did to a schema registered before it, if anything, as a sentence's end."""
    for key in sorted(before.keys() | after.keys()):
        domain, name, version = key
        versioned = f"{domain_label(domain)}.{name}-{version}"
        if key in before and key not in after:
            return f"removes {versioned}, which was registered before it"
        if (key in before and after[key] != before[key]) or len(after.get(key, ())) > 1:
            return (
                f"registers {versioned} again, which was already registered; "
                "give its schemas their own domain or a new version"
            )
    return None


def _import_one(name: str) -> None:
    """Import one schema module; anything it raises or exits with is a one-line usage error."""
    try:
        with stdout_to_stderr():
            importlib.import_module(name)
    except KeyboardInterrupt:
        raise
    except SystemExit as exc:
        raise UsageError(
            f"schema module {name!r} called sys.exit({exc.code!r}) while being imported"
        ) from None
    except BaseException as exc:  # any failure in user code is reported the same way
        message = " ".join(str(exc).split())
        raise UsageError(
            f"cannot import schema module {name!r}: {type(exc).__name__}: {message}"
        ) from None


def import_schema_modules(modules: Iterable[str]) -> set[SchemaKey]:
    """Import user modules that register extra schemas with onnx.

    Modules are looked up from the current folder first, as ``python -m``
    would. What they print goes to stderr, since stdout may carry a
    snapshot. A module that cannot be imported, exits, or registers a schema
    onnx already has (replacing it would document a different operator under
    onnx's name) is a usage error naming it. Returns what was registered before the
    first module (nothing without modules).
    """
    modules = list(modules)
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    registered = before = _registered() if modules else {}
    for name in modules:
        _import_one(name)
        now = _registered()
        overridden = _overridden(registered, now)
        if overridden:
            raise UsageError(f"schema module {name!r} {overridden}")
        registered = now
    return set(before)


def collect(
    schema_modules: Iterable[str] = (),
    *,
    with_examples: bool = True,
    with_details: bool = False,
    examples: Background | None = None,
) -> Reference:
    """Read every registered schema (all domains, all versions) into a Reference.

    With ``with_examples``, the example snippets and sample implementations
    are read too: from ``examples`` when the caller started reading them
    already (see :func:`gendoc.collect.installed.reference`), else here.
    ``with_details`` adds each version's :class:`SchemaDetails` (the site shows them).
    """
    modules = tuple(schema_modules)
    before = import_schema_modules(modules)
    found = defs.get_all_schemas_with_history()
    schemas = sorted((convert_schema(op) for op in found), key=schema_sort_key)
    details = {}
    if with_details:
        details = {(op.domain, op.name, int(op.since_version)): schema_details(op) for op in found}
    own = sorted(
        (op.domain, op.name, int(op.since_version))
        for op in found
        if not modules or (domain_key(op.domain), op.name, int(op.since_version)) in before
    )
    reference = Reference(
        onnx_version=REGISTRY.version, schemas=tuple(schemas), details=details, onnx_own=tuple(own)
    )
    if not with_examples:
        return reference
    onnx_dir = REGISTRY.folder
    found_examples = examples.result() if examples is not None else read_examples(onnx_dir)
    return replace(
        reference,
        examples=examples_of(found_examples, ml=REGISTRY.ml),
        samples=read_samples(onnx_dir),
    )
