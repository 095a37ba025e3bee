"""Example snippets from onnx's backend test cases, read without running them.

onnx's own generator imports every test-case module, which executes every
``export*`` function just to get at its source. The snippets are a pure
function of the source text, so this module scans the files instead: it finds
the ``export*`` static methods of each test-case class and cuts out their body
the way ``inspect.getsource`` would, then strips it as onnx does.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from textwrap import dedent
from typing import Any

from gendoc.model.reference import Example
from gendoc.storage.cache import cached_json, fingerprint

# Below onnx's folder: the backend test cases, and the sample implementations.
_CASES = ("backend", "test", "case")
_SAMPLES = ("backend", "sample", "ops")
# The test cases of the ML operators, left out of a build of onnx without them.
_ML_CASES = "ai_onnx_ml"

_CLASS = re.compile(r"^class (\w+)\(([^)]*)\):", re.MULTILINE)
_EXPORT = re.compile(r"^([ \t]+)@staticmethod\n\1def (export\w*)\(", re.MULTILINE)
_TRIPLE_QUOTES = ('"""', "'''")
# Comments and string literals, longest form first, so that quotes inside a
# comment or another string are not mistaken for the start of a string.
_LEXEME = re.compile(
    r"#[^\n]*"
    r'|[rRbBuUfF]{0,2}"""(?:\\.|[^\\])*?"""'
    r"|[rRbBuUfF]{0,2}'''(?:\\.|[^\\])*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'"
)


def onnx_folder() -> Path | None:
    """Where the onnx package is, found without importing it.

    Importing onnx takes longer than reading all its examples, and importing
    ``onnx.backend.test`` pulls in the reference evaluator as well.
    """
    spec = importlib.util.find_spec("onnx")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _case_files(onnx_dir: Path) -> list[Path]:
    return sorted(onnx_dir.joinpath(*_CASES).rglob("*.py"))


def _sample_files(onnx_dir: Path) -> list[Path]:
    return sorted(p for p in onnx_dir.joinpath(*_SAMPLES).glob("*.py") if p.name != "__init__.py")


def source_files(onnx_dir: Path) -> list[Path]:
    """Every file the examples and samples are read from."""
    return _case_files(onnx_dir) + _sample_files(onnx_dir)


def _multiline_strings(text: str) -> list[tuple[int, int]]:
    """Spans of string literals that cross a line break."""
    return [
        m.span()
        for m in _LEXEME.finditer(text)
        if not m.group().startswith("#") and "\n" in m.group()
    ]


def _block_end(lines: list[str], inside: list[bool], start: int) -> int:
    """Index one past the last line of the function whose decorator is at ``start``.

    Mirrors ``inspect.getblock``: the block ends with the last logical line
    indented deeper than the decorator; trailing blank and comment lines are
    not part of it, and lines inside a multi-line string continue the block
    whatever their indentation.
    """
    indent = len(lines[start]) - len(lines[start].lstrip())
    last = start + 1
    for i in range(start + 2, len(lines)):
        if inside[i]:
            last = i
            continue
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(lines[i]) - len(lines[i].lstrip()) <= indent:
            break
        last = i
    return last + 1


def _line_flags(text: str, lines: list[str], spans: list[tuple[int, int]]) -> list[bool]:
    """For each line, whether it starts inside a multi-line string."""
    inside = [False] * len(lines)
    for begin, finish in spans:
        first = text.count("\n", 0, begin) + 1
        last = text.count("\n", 0, finish)
        for i in range(first, min(last + 1, len(lines))):
            inside[i] = True
    return inside


def _snippets_of_file(text: str) -> dict[str, list[Example]]:
    found: dict[str, list[Example]] = {}
    lines = text.splitlines(keepends=True)
    spans = _multiline_strings(text) if any(q in text for q in _TRIPLE_QUOTES) else []
    inside = _line_flags(text, lines, spans)
    classes = list(_CLASS.finditer(text))
    for n, cls in enumerate(classes):
        bases = [b.strip() for b in cls.group(2).split(",")]
        if "Base" not in bases or _within(cls.start(), spans):
            continue
        end = classes[n + 1].start() if n + 1 < len(classes) else len(text)
        for match in _EXPORT.finditer(text, cls.end(), end):
            if _within(match.start(), spans):
                continue
            first = text.count("\n", 0, match.start())
            block = "".join(lines[first : _block_end(lines, inside, first)])
            summary = match.group(2)[len("export_") :] or cls.group(1).lower()
            # onnx dedents the whole function, drops the decorator and ``def`` lines and
            # dedents again; the body's lines carry the first margin too, so one dedent of
            # the body removes the same prefix.
            code = _dedent(block.splitlines()[2:])
            found.setdefault(cls.group(1), []).append(Example(summary, code))
    return found


def _dedent(lines: list[str]) -> str:
    """``textwrap.dedent("\\n".join(lines))``, without its regular expressions when no tab is in.

    As textwrap does, a line of blanks becomes empty and the margin common to the
    other lines is removed; tabs (never seen in onnx's test cases) go to textwrap.
    """
    if any("\t" in line for line in lines):
        return dedent("\n".join(lines))
    stripped = [line.lstrip(" ") for line in lines]
    margins = [len(line) - len(rest) for line, rest in zip(lines, stripped, strict=True) if rest]
    margin = min(margins, default=0)
    return "\n".join(
        line[margin:] if rest else "" for line, rest in zip(lines, stripped, strict=True)
    )


def _within(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(begin < offset < finish for begin, finish in spans)


def _scan_examples(root: Path, files: list[Path]) -> dict[str, list[list[Any]]]:
    merged: dict[str, list[list[Any]]] = {}
    for path in files:
        ml = _ML_CASES in path.relative_to(root).parts
        for name, examples in _snippets_of_file(path.read_text(encoding="utf-8")).items():
            merged.setdefault(name, []).extend([e.summary, e.code, ml] for e in examples)
    return {name: sorted(found) for name, found in sorted(merged.items())}


def read_examples(onnx_dir: Path) -> dict[str, list[list[Any]]]:
    """Every snippet as ``[summary, code, from an ML test case]``, by class (operator) name.

    Plain JSON, so that it can be cached and sent from another process; the
    snippets come from the files alone, so their fingerprint is the key.
    """
    root = onnx_dir.joinpath(*_CASES)
    files = _case_files(onnx_dir)
    key = fingerprint(f"examples {root}", files)
    return cached_json("examples", key, lambda: _scan_examples(root, files), _is_examples)


def _is_examples(value: Any) -> bool:
    """Whether a cached value has the shape :func:`_scan_examples` gives."""
    return isinstance(value, dict) and all(
        isinstance(name, str)
        and isinstance(snippets, list)
        and all(
            isinstance(s, list)
            and len(s) == 3
            and isinstance(s[0], str)
            and isinstance(s[1], str)
            and isinstance(s[2], bool)
            for s in snippets
        )
        for name, snippets in value.items()
    )


def examples_of(found: dict[str, list[list[Any]]], ml: bool) -> dict[str, tuple[Example, ...]]:
    """What :func:`read_examples` found, as the model holds it, sorted as onnx shows them.

    ``ml`` is whether the installed onnx was built with its ML operators.
    """
    shown = {
        name: tuple(Example(summary, code) for summary, code, of_ml in snippets if ml or not of_ml)
        for name, snippets in found.items()
    }
    return {name: snippets for name, snippets in shown.items() if snippets}


def read_samples(onnx_dir: Path) -> dict[str, str]:
    """Source of each sample implementation, keyed by module name (lower case)."""
    return {path.stem: path.read_text(encoding="utf-8") for path in _sample_files(onnx_dir)}
