"""Read onnxruntime's training gradient registry out of its C++ sources into plain data.

onnxruntime (the ``orttraining`` part) differentiates a graph with one
gradient builder per operator. Three files say everything the evidence
needs, and none of it requires compiling anything:

``orttraining/orttraining/core/graph/gradient_builder_registry.cc``
    ``REGISTER_GRADIENT_BUILDER("Op", GetOpGradient)``: which builder serves
    which operator type.
``orttraining/orttraining/core/graph/gradient_builder.cc``
    ``IMPLEMENT_GRADIENT_BUILDER(GetOpGradient) { ... }``: the body names
    ``GI(i)`` for every input it produces a gradient for and ``GO(j)`` for
    every output gradient it reads. A ``GI(i)`` inside
    ``for (int i = N; ...)`` means every input from ``N`` on.
``orttraining/orttraining/core/framework/gradient_graph_builder.h``
    ``STOP_GRADIENT_EDGES``: inputs the graph builder never propagates
    through, whatever the builder says.

Usage (offline, on a checkout or on copies of those files in the same
layout)::

    python -m gendoc.evidence.ort_extract SOURCE_DIR COMMIT [OUTPUT]

The version comes from ``SOURCE_DIR/VERSION_NUMBER``; ``OUTPUT`` defaults to
the package's own ``data/ort_gradients.json``, so one command refreshes it for
a newer release. The output is deterministic JSON (sorted keys), written
atomically. The arguments are positional: the option parser of this project
is the ``gendoc`` command's alone.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gendoc.errors import GendocError, UsageError
from gendoc.evidence.ort_registry import DATA_FILE
from gendoc.write import write_documents

REGISTRY_FILE = "orttraining/orttraining/core/graph/gradient_builder_registry.cc"
BUILDER_FILE = "orttraining/orttraining/core/graph/gradient_builder.cc"
STOP_EDGES_FILE = "orttraining/orttraining/core/framework/gradient_graph_builder.h"
SOURCE_FILES = (REGISTRY_FILE, BUILDER_FILE, STOP_EDGES_FILE)

_MACRO_BUILDERS = {
    "NO_GRADIENT": "EmptyGradientBuilder",
    "SHOULD_NOT_DO_GRADIENT": "UnSupportedGradientBuilder",
}
_REGISTER = re.compile(r'REGISTER_GRADIENT_BUILDER\(\s*"(\w+)"\s*,\s*(\w+)\s*\)')
_MACRO = re.compile(r'\b(NO_GRADIENT|SHOULD_NOT_DO_GRADIENT)\(\s*"(\w+)"\s*\)')
_IMPLEMENT = re.compile(r"IMPLEMENT_GRADIENT_BUILDER\(\s*(\w+)\s*\)\s*\{")
_STOP_TABLE = re.compile(r"STOP_GRADIENT_EDGES\s*=\s*\{")
_STOP_ENTRY = re.compile(r'\{\s*"(\w+)"\s*,\s*\{([\d\s,]*)\}\s*\}')
# A comment, or a string/char literal (kept as empty quotes so "GI(" in a string is no hit).
_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def strip_noise(source: str, *, keep_strings: bool = False) -> str:
    """``source`` without comments; string literals emptied unless ``keep_strings``.

    Builder bodies are scanned without strings (``"GI("`` in a string is no
    index); the registry and the stop table keep them (their keys are strings).
    """

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token[0] not in "\"'":
            return " "
        return token if keep_strings else '""'

    return _NOISE.sub(replace, source)


def _block(text: str, open_at: int) -> str:
    """The text between the brace at ``open_at`` and its matching close."""
    depth = 0
    for pos in range(open_at, len(text)):
        if text[pos] == "{":
            depth += 1
        elif text[pos] == "}":
            depth -= 1
            if depth == 0:
                return text[open_at + 1 : pos]
    raise GendocError(f"unbalanced braces after offset {open_at}")


def _indices(body: str, macro: str) -> dict[str, object]:
    """Which ``macro(i)`` (``GI`` or ``GO``) a builder body names.

    ``fixed``: literal indices. ``from``: the lowest start of a counting loop
    whose variable is used as the index (every index from there on), or
    ``None``. ``dynamic``: an index that is neither (computed at run time).
    """
    fixed = sorted({int(n) for n in re.findall(rf"\b{macro}\(\s*(\d+)\s*\)", body)})
    starts: list[int] = []
    dynamic = False
    for var in sorted(set(re.findall(rf"\b{macro}\(\s*([A-Za-z_]\w*)\s*\)", body))):
        loop = re.findall(rf"for\s*\(\s*(?:int|size_t|int64_t|auto)\s+{var}\s*=\s*(\d+)\s*;", body)
        if loop:
            starts.extend(int(n) for n in loop)
        else:
            dynamic = True
    return {"fixed": fixed, "from": min(starts) if starts else None, "dynamic": dynamic}


def parse_registry(source: str) -> dict[str, str]:
    """Operator type -> builder class, in the order of registration (last one wins)."""
    text = strip_noise(source, keep_strings=True)
    found: dict[str, str] = {}
    for match in sorted(
        [*_REGISTER.finditer(text), *_MACRO.finditer(text)], key=lambda m: m.start()
    ):
        if match.re is _REGISTER:
            found[match.group(1)] = match.group(2)
        else:
            found[match.group(2)] = _MACRO_BUILDERS[match.group(1)]
    return found


def parse_builders(source: str) -> dict[str, dict[str, object]]:
    """Builder class -> the ``GI`` and ``GO`` indices its body names."""
    text = strip_noise(source)
    builders: dict[str, dict[str, object]] = {}
    for match in _IMPLEMENT.finditer(text):
        body = _block(text, match.end() - 1)
        builders[match.group(1)] = {
            "inputs": _indices(body, "GI"),
            "outputs": _indices(body, "GO"),
        }
    return builders


def parse_stop_edges(source: str) -> dict[str, list[int]]:
    """Operator type -> input indices in ``STOP_GRADIENT_EDGES``."""
    text = strip_noise(source, keep_strings=True)
    match = _STOP_TABLE.search(text)
    if match is None:
        raise GendocError("no STOP_GRADIENT_EDGES table found")
    table = _block(text, match.end() - 1)
    return {
        op: sorted(int(n) for n in re.findall(r"\d+", indices))
        for op, indices in _STOP_ENTRY.findall(table)
    }


def extract(source_dir: Path, *, commit: str) -> dict[str, object]:
    """The registry data of the onnxruntime sources under ``source_dir``."""
    texts = {}
    for rel in SOURCE_FILES:
        path = source_dir / rel
        try:
            texts[rel] = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        version = (source_dir / "VERSION_NUMBER").read_text(encoding="utf-8").strip()
    except OSError:
        raise UsageError(f"no VERSION_NUMBER in {source_dir}") from None
    return {
        "onnxruntime": {"version": version, "commit": commit, "files": list(SOURCE_FILES)},
        "registry": parse_registry(texts[REGISTRY_FILE]),
        "builders": parse_builders(texts[BUILDER_FILE]),
        "stop_gradient_edges": parse_stop_edges(texts[STOP_EDGES_FILE]),
    }


def to_json(data: dict[str, object]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


USAGE = "usage: python -m gendoc.evidence.ort_extract SOURCE_DIR COMMIT [OUTPUT]"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3) or any(a.startswith("-") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    source, commit = Path(args[0]), args[1]
    output = Path(args[2]) if len(args) == 3 else Path(__file__).with_name("data") / DATA_FILE
    try:
        text = to_json(extract(source, commit=commit))
        write_documents(output.parent, {output.name: text})
    except GendocError as exc:
        print(f"gendoc: error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
