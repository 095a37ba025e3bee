"""Reading a snapshot (:mod:`gendoc.model.snapshot`) back into the model, with every check.

A file gendoc wrote is decoded by msgspec straight from its bytes; anything else goes
through the slower reading that names the first value that does not fit (its JSON path)
and refuses values the types allow but no schema has. Every way a file can be unusable
is one :class:`~gendoc.errors.UsageError` line.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from gendoc.errors import GendocError, UsageError
from gendoc.model.reference import Reference, Schema, schema_sort_key
from gendoc.model.snapshot import (
    FORMAT,
    FORMAT_VERSION,
    SCHEMA_FIELDS,
    Snapshot,
)
from gendoc.storage.write import read_regular_file

_T = TypeVar("_T")


@dataclass(frozen=True)
class _Header:
    """The part of a snapshot read first, to name an unreadable version before anything else."""

    format_version: int


class _Invalid(Exception):
    """Raised inside the reader with the JSON path of the offending value."""


class _LongInteger:
    """Stands in for an integer literal too long to read, so its JSON path can be named.

    Python refuses to convert more than a few thousand digits (a guard
    against quadratic time); no field of a snapshot holds anything near that.
    """

    def __init__(self, digits: str) -> None:
        self.digits = digits


_MAX_DIGITS = 100


def _parse_int(digits: str) -> int | _LongInteger:
    return int(digits) if len(digits) <= _MAX_DIGITS else _LongInteger(digits)


def _unreadable_value(value: Any, path: str = "$") -> str | None:
    """The first value JSON can hold but a snapshot cannot, as "path: problem".

    A ``\\ud800`` escape decodes to a lone surrogate, which no UTF-8 file
    (and no document rendered from the snapshot) can hold.
    """
    if isinstance(value, str):
        if not value.isascii() and not _encodes(value):
            return f"{path}: the string holds a lone surrogate (not Unicode text)"
    elif isinstance(value, _LongInteger):
        return f"{path}: an integer of {len(value.digits)} digits is out of range"
    elif isinstance(value, list):
        for i, item in enumerate(value):
            problem = _unreadable_value(item, f"{path}[{i}]")
            if problem:
                return problem
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _unreadable_value(key, f"{path} key") or _unreadable_value(
                item, f"{path}.{key}"
            )
            if problem:
                return problem
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_PATH_SUFFIX = re.compile(r"^(?P<problem>.*) - at `(?P<path>[^`]*)`$", re.DOTALL)


def _convert(data: Any, kind: type[_T]) -> _T:
    """``data`` as ``kind``; a mismatch becomes "path: problem", as the other messages read."""
    try:
        return msgspec.convert(data, type=kind, strict=True)
    except msgspec.ValidationError as exc:
        match = _PATH_SUFFIX.match(str(exc))
        path, problem = (match["path"], match["problem"]) if match else ("$", str(exc))
        raise _Invalid(f"{path}: {problem[:1].lower()}{problem[1:]}") from None


def _check_format(data: Any) -> None:
    """Reject files that are not snapshots, or snapshots this gendoc cannot read."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Invalid(f'not a gendoc snapshot (no "format": "{FORMAT}" at the top)')
    version = _convert(data, _Header).format_version
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


# Fields that are versions (at least 1) or counts (at least 0); in every string a control
# character other than a line break or a tab is refused.
_VERSIONS = frozenset({"since_version", "function_versions", "opset_versions"})
_COUNTS = frozenset({"min_arity", "min_inputs", "max_inputs", "min_outputs", "max_outputs"})
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _bad_value(value: Any, path: str, field: str) -> str | None:
    """What is wrong with one value of a converted snapshot, as "path: problem", or None."""
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            problem = _bad_value(getattr(value, f.name), f"{path}.{f.name}", f.name)
            if problem:
                return problem
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            problem = _bad_value(item, f"{path}[{i}]", field)
            if problem:
                return problem
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _bad_value(key, f"{path} key", "") or _bad_value(item, f"{path}.{key}", "")
            if problem:
                return problem
    elif isinstance(value, str):
        found = _CONTROL.search(value)
        if found:
            return f"{path}: holds the control character U+{ord(found.group()):04X}"
    elif isinstance(value, int) and not isinstance(value, bool):
        if field in _VERSIONS and value < 1:
            return f"{path}: a version is at least 1, not {value}"
        if field in _COUNTS and value < 0:
            return f"{path}: a count is at least 0, not {value}"
    return None


def snapshot_from_data(data: Any) -> Snapshot:
    """Check parsed snapshot JSON and convert it; raise UsageError naming the bad value."""
    try:
        problem = _unreadable_value(data)
        if problem:
            raise _Invalid(problem)
        _check_format(data)
        snapshot = _convert(data, Snapshot)
        problem = _bad_value(snapshot, "$", "")
        if problem:
            raise _Invalid(problem)
        _check_unique(snapshot.schemas)
    except _Invalid as exc:
        raise UsageError(str(exc)) from None
    return snapshot


def reference_of(snapshot: Snapshot) -> Reference:
    """The model a snapshot holds: what the documents and ``diff`` are made from."""
    entries = sorted(snapshot.schemas, key=schema_sort_key)
    return Reference(
        onnx_version=snapshot.onnx_version,
        schemas=tuple(Schema(**{n: getattr(e, n) for n in SCHEMA_FIELDS}) for e in entries),
        examples=dict(snapshot.examples),
        samples=dict(snapshot.samples),
        details={schema_sort_key(e): e.details for e in entries if e.details is not None},
    )


def from_data(data: Any) -> Reference:
    """Rebuild a Reference from parsed snapshot JSON; raise UsageError naming the bad value."""
    return reference_of(snapshot_from_data(data))


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


def _well_formed(raw: bytes) -> Snapshot | None:
    """The snapshot, decoded by msgspec straight from the bytes, when nothing in it is wrong
    (every file gendoc wrote); ``None`` sends it to the reading that names what is wrong."""
    try:
        snapshot = msgspec.json.decode(raw, type=Snapshot, strict=True)
        if _bad_value(snapshot, "$", "") is not None:
            return None
        _check_unique(snapshot.schemas)
    except (msgspec.MsgspecError, _Invalid):
        return None
    return snapshot


def load_snapshot(path: Path) -> Reference:
    """Read a snapshot file; every way it can be unusable is one UsageError line."""
    if path.is_dir():
        raise UsageError(f"snapshot path is a folder, not a file: {path}")
    try:
        raw = read_regular_file(path, follow_links=True)
    except GendocError as exc:
        raise UsageError(str(exc)) from None
    if raw is None:
        raise UsageError(f"snapshot file not found: {path}")
    snapshot = _well_formed(raw)
    if snapshot is not None:
        return reference_of(snapshot)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a gendoc snapshot (the file is not UTF-8 text)") from None
    try:
        return from_data(json.loads(text, parse_int=_parse_int))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: {_json_error(text, exc)}") from None
    except RecursionError:
        raise UsageError(f"{path}: not a gendoc snapshot (nested too deeply)") from None
    except UsageError as exc:
        # Names from the file end up in the message; keep it on one line whatever they hold.
        raise UsageError(" ".join(f"{path}: {exc}".splitlines())) from None
