"""An index of the schema definitions in an onnx checkout's ``onnx/defs`` folder.

Two places define a parameter: the builder chain of one
``ONNX_OPERATOR_SET_SCHEMA(Name, Version, OpSchema()...)`` invocation, or a
helper function that several chains use (``PoolOpSchemaGenerator``,
``MathDocGenerator``, ...) calling ``schema.Input(...)``. Changing a helper
changes every schema that reaches it, so the index records, for each
invocation, the helpers it reaches, directly or through other helpers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.model.reference import ParameterRef, Part
from gendoc.suggest.cpp import Scan, Span, Unbalanced, scan, string_value

DEFS = "onnx/defs"
_MACROS = {
    "ONNX_OPERATOR_SET_SCHEMA": "",
    "ONNX_ML_OPERATOR_SET_SCHEMA": "ai.onnx.ml",
    "ONNX_TRAINING_OPERATOR_SET_SCHEMA": "ai.onnx.training",
    "ONNX_PREVIEW_OPERATOR_SET_SCHEMA": "ai.onnx.preview",
    "ONNX_PREVIEW_TRAINING_OPERATOR_SET_SCHEMA": "ai.onnx.preview.training",
}
_TOP_LEVEL = re.compile(rf"^[ \t]*(?P<macro>{'|'.join(_MACROS)})\s*\(|[(\[{{]", re.MULTILINE)
"""A schema macro at the start of a line, or any opening bracket."""
_CALL = re.compile(r"\.\s*(Input|Output)\s*\(")
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_CATEGORY = re.compile(r"(?:ONNX_NAMESPACE::|onnx::)?OpSchema::(?:DifferentiationCategory::)?(\w+)")
CATEGORIES = ("Differentiable", "NonDifferentiable", "Unknown")
CATEGORY_ARG = 7
"""Index of the differentiation category among ``Input``/``Output`` arguments."""
DEFAULTS = ("OpSchema::Single", "true", "1")
"""The defaults of the arguments between the type string and the category."""
_SIGNATURE_TAIL = re.compile(r"\s*(?:(?:const|noexcept|override)\s*)*(?:->[\w:<>&*,\s]+)?")
"""What may stand between a function's parameter list and its body."""
_NAMESPACE = re.compile(r"\bnamespace\b[\w:\s]*$")
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "return", "sizeof"}


@dataclass(frozen=True)
class Call:
    """One ``.Input(...)``/``.Output(...)`` call with a literal parameter name."""

    path: str
    parameter: ParameterRef
    line: int
    open_at: int
    close_at: int
    args: tuple[Span, ...]
    category: str | None
    """``Differentiable``/``NonDifferentiable``/``Unknown``; ``None`` when computed."""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Block:
    """A schema definition (``domain``/``version`` set) or a helper function (not set)."""

    path: str
    name: str
    line: int
    calls: tuple[Call, ...]
    called: frozenset[str]
    domain: str | None = None
    version: int | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def _calls(path: str, source: Scan, start: int, end: int) -> list[Call]:
    found = []
    text = source.text
    for match in _CALL.finditer(source.masked, start, end):
        open_at = match.end() - 1
        close_at = source.closing(open_at)
        args = tuple(source.arguments(open_at, close_at))
        name = string_value(text[args[1].start : args[1].end]) if len(args) >= 4 else None
        if name is None:
            continue
        category = "Unknown"
        if len(args) > CATEGORY_ARG:
            spelled = _CATEGORY.fullmatch(text[args[CATEGORY_ARG].start : args[CATEGORY_ARG].end])
            category = spelled[1] if spelled and spelled[1] in CATEGORIES else None
        parameter = ParameterRef(Part(match[1].lower()), name)
        line = source.line(match.start())
        found.append(Call(path, parameter, line, open_at, close_at, args, category))
    return found


def _called(masked: str, start: int, end: int) -> frozenset[str]:
    return frozenset(m[1] for m in _CALLED.finditer(masked, start, end))


def _function_name(source: Scan, brace: int) -> str | None:
    """The name of the function whose body opens at ``brace``, if it is one.

    Only the 200 characters before the brace are read: a signature's closing
    bracket and qualifiers, then the name before its opening bracket.
    """
    masked = source.masked
    close_at = masked.rfind(")", max(0, brace - 200), brace)
    if close_at < 0 or not _SIGNATURE_TAIL.fullmatch(masked, close_at + 1, brace):
        return None
    open_at = source.opening(close_at)
    if open_at < 0:
        return None
    name = re.search(r"([A-Za-z_]\w*)\s*$", masked[max(0, open_at - 200) : open_at])
    return None if name is None or name[1] in _NOT_FUNCTIONS else name[1]


def _blocks(path: str, text: str) -> Iterable[Block]:
    source = scan(text)
    masked = source.masked
    i = 0
    while (found := _TOP_LEVEL.search(masked, i)) is not None:
        i = found.start()
        if found["macro"]:
            open_at = found.end() - 1
            close_at = source.closing(open_at)
            args = source.arguments(open_at, close_at)
            version = text[args[1].start : args[1].end] if len(args) >= 3 else ""
            if version.isdigit():
                yield Block(
                    path,
                    text[args[0].start : args[0].end],
                    source.line(found.start("macro")),
                    tuple(_calls(path, source, open_at, close_at)),
                    _called(masked, args[2].start, close_at),
                    _MACROS[found["macro"]],
                    int(version),
                )
            i = close_at + 1
        elif found[0] != "{":
            i = source.closing(i) + 1
        elif _NAMESPACE.search(masked, max(0, i - 200), i):
            i += 1
        else:
            end = source.closing(i)
            name = _function_name(source, i)
            calls = _calls(path, source, i, end)
            if name is not None:
                yield Block(path, name, source.line(i), tuple(calls), _called(masked, i, end))
            i = end + 1


def _parse(path: str, text: str) -> list[Block]:
    """The blocks of one file; a bracket never closed is one line naming the file and line."""
    try:
        return list(_blocks(path, text))
    except Unbalanced as exc:
        line = text.count("\n", 0, exc.offset) + 1
        raise UsageError(
            f"cannot parse {path}:{line}: {text[exc.offset]!r} is never closed"
        ) from None


def _read(file: Path, path: str) -> str:
    """The text of one source file; unreadable or not UTF-8 is one line naming it."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(
            f"cannot read {path}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x})"
        ) from None


@dataclass(frozen=True)
class SourceTree:
    """Every schema definition and top-level function under ``root/onnx/defs``."""

    root: Path
    texts: dict[str, str]
    definitions: tuple[Block, ...]
    helpers: tuple[Block, ...]

    @classmethod
    def read(cls, root: Path) -> SourceTree:
        texts, definitions, helpers = {}, [], []
        for file in sorted((root / DEFS).rglob("*")):
            if file.suffix not in (".cc", ".h") or not file.is_file():
                continue
            path = file.relative_to(root).as_posix()
            texts[path] = text = _read(file, path)
            for block in _parse(path, text):
                (definitions if block.version is not None else helpers).append(block)
        return cls(root, texts, tuple(definitions), tuple(helpers))

    def find(self, domain: str, name: str, version: int, path: str, line: int) -> Block | None:
        """The definition of one schema, located by the file and line onnx recorded."""
        found = [
            d
            for d in self.definitions
            if (d.path, d.domain, d.name, d.version) == (path, domain, name, version)
        ]
        return min(found, key=lambda d: abs(d.line - line), default=None)

    @cached_property
    def _by_name(self) -> dict[str, list[Block]]:
        named: dict[str, list[Block]] = {}
        for helper in self.helpers:
            named.setdefault(helper.name, []).append(helper)
        return named

    def _resolve(self, name: str, path: str) -> list[Block]:
        """A helper called from ``path``: its own file's definition first (static helpers)."""
        candidates = self._by_name.get(name, [])
        local = [h for h in candidates if h.path == path]
        return local or candidates

    def reached(self, block: Block) -> list[Block]:
        """The helpers ``block`` calls, directly or through other helpers, in a stable order."""
        seen: dict[tuple[str, int], Block] = {}
        pending = [block]
        while pending:
            current = pending.pop()
            for name in sorted(current.called):
                for helper in self._resolve(name, current.path):
                    if (helper.path, helper.line) not in seen:
                        seen[(helper.path, helper.line)] = helper
                        pending.append(helper)
        return [seen[k] for k in sorted(seen)]

    def sites(self, block: Block, parameter: ParameterRef) -> list[Call]:
        """The calls that define ``parameter`` of a schema: its own chain first."""
        own = [c for c in block.calls if c.parameter == parameter]
        if own:
            return own
        return [c for h in self.reached(block) for c in h.calls if c.parameter == parameter]
