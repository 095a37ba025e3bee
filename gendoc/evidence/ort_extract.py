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
    ``for (int i = N; i < M; ...)`` means every input from ``N`` on (below
    ``M`` when ``M`` is a number), less those an ``if (i == K) continue;``
    in the loop skips (``K`` a number or a named constant of the builder:
    the LSTM and GRU builders skip ``sequence_lens`` that way).
``orttraining/orttraining/core/framework/gradient_graph_builder.h``
    ``STOP_GRADIENT_EDGES``: inputs the graph builder never propagates
    through, whatever the builder says.

Usage (offline, on a checkout or on copies of those files in the same
layout)::

    python -m gendoc.evidence.ort_extract SOURCE_DIR TAG COMMIT [OUTPUT]

``TAG`` is the release tag the sources were checked out at (``v1.19.2``) and
``COMMIT`` the commit it names; both are recorded, and the tag must name the
version in ``SOURCE_DIR/VERSION_NUMBER``, so a main-branch checkout cannot be
passed off as a release. ``OUTPUT`` defaults to the package's own
``data/ort_gradients.json``, so one command refreshes it for a newer release.
The output is deterministic JSON (sorted keys), written atomically. The
arguments are positional: the option parser of this project is the
``gendoc`` command's alone.

The shipped data is read from the release tag ``v1.19.2``, the last
release published with onnxruntime's training package; a checkout of the
tag (``git archive v1.19.2 VERSION_NUMBER orttraining``) is all it needs.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gendoc.errors import GendocError, UsageError
from gendoc.evidence.ort_registry import DATA_FILE
from gendoc.storage.write import write_documents

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


def _closing(text: str, open_at: int, pair: str = "{}") -> int:
    """The offset of the bracket that closes the one at ``open_at`` (``pair``: open, close)."""
    depth = 0
    for pos in range(open_at, len(text)):
        if text[pos] == pair[0]:
            depth += 1
        elif text[pos] == pair[1]:
            depth -= 1
            if depth == 0:
                return pos
    raise GendocError(f"unbalanced {pair} after offset {open_at}")


def _block(text: str, open_at: int) -> str:
    """The text between the brace at ``open_at`` and its matching close."""
    return text[open_at + 1 : _closing(text, open_at)]


_LOOP = re.compile(
    r"for\s*\(\s*(?:const\s+)?(?:int|size_t|int64_t|auto)\s+([A-Za-z_]\w*)\s*=\s*(\d+)\s*;"
    r"\s*\1\s*<\s*([^;]*);"
)
_CONSTANT = re.compile(r"\b(?:constexpr|const)\s+[\w:]+\s+([A-Za-z_]\w*)\s*=\s*(\d+)\s*;")
_SKIP = re.compile(r"\bif\s*\(")
_CONTINUE = re.compile(r"\s*(?:continue\s*;|\{\s*continue\s*;\s*\})")


def _loop_body(text: str, header_open: int) -> str:
    """The statement a ``for`` runs: its braced block, or the single statement after it."""
    after = _closing(text, header_open, "()") + 1
    rest = text[after:].lstrip()
    start = len(text) - len(rest)
    if rest.startswith("{"):
        return _block(text, start)
    return text[start : text.find(";", start) + 1]


def _skips(body: str, var: str, constants: dict[str, int]) -> list[int] | None:
    """The indices ``if (var == K) continue;`` statements skip; ``None`` if one is unreadable."""
    term = re.compile(rf"^(?:{var}\s*==\s*(\w+)|(\w+)\s*==\s*{var})$")
    skipped: list[int] = []
    for match in _SKIP.finditer(body):
        close = _closing(body, match.end() - 1, "()")
        if not _CONTINUE.match(body, close + 1):
            continue
        for part in body[match.end() : close].split("||"):
            found = term.match(part.strip())
            if found is None:
                return None
            key = found.group(1) or found.group(2)
            value = int(key) if key.isdigit() else constants.get(key)
            if value is None:
                return None
            skipped.append(value)
    return sorted(set(skipped))


def _indices(body: str, macro: str) -> dict[str, object]:
    """Which ``macro(i)`` (``GI`` or ``GO``) a builder body names.

    ``fixed``: literal indices. ``ranges``: one per counting loop whose
    variable is used as the index: ``from`` its start, ``below`` its bound
    when that is a number (else ``None``: every index from ``from`` on), and
    ``skip`` the indices the loop ``continue``s past. ``dynamic``: an index
    that is neither (computed at run time), or a loop whose skips cannot be
    read.
    """
    fixed = sorted({int(n) for n in re.findall(rf"\b{macro}\(\s*(\d+)\s*\)", body)})
    constants = {name: int(value) for name, value in _CONSTANT.findall(body)}
    ranges: list[dict[str, object]] = []
    dynamic = False
    for var in sorted(set(re.findall(rf"\b{macro}\(\s*([A-Za-z_]\w*)\s*\)", body))):
        uses = re.compile(rf"\b{macro}\(\s*{var}\s*\)")
        found = False
        for loop in _LOOP.finditer(body):
            if loop.group(1) != var:
                continue
            inner = _loop_body(body, body.index("(", loop.start()))
            if not uses.search(inner):
                continue
            found = True
            bound = loop.group(3).strip()
            skip = _skips(inner, var, constants)
            if skip is None:
                dynamic = True
                continue
            ranges.append(
                {
                    "from": int(loop.group(2)),
                    "below": int(bound) if bound.isdigit() else None,
                    "skip": skip,
                }
            )
        dynamic = dynamic or not found
    unique = {json.dumps(r, sort_keys=True): r for r in ranges}
    return {"fixed": fixed, "ranges": [unique[k] for k in sorted(unique)], "dynamic": dynamic}


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


def extract(source_dir: Path, *, tag: str, commit: str) -> dict[str, object]:
    """The registry data of the onnxruntime sources under ``source_dir``, checked out at
    release ``tag`` (commit ``commit``)."""
    texts = {}
    for rel in SOURCE_FILES:
        path = source_dir / rel
        try:
            texts[rel] = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{path} is not UTF-8 text") from None
    try:
        version = (source_dir / "VERSION_NUMBER").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        raise UsageError(f"no readable VERSION_NUMBER in {source_dir}") from None
    if tag.removeprefix("v") != version:
        raise UsageError(f"tag {tag} does not name the version in VERSION_NUMBER ({version})")
    return {
        "onnxruntime": {
            "version": version,
            "tag": tag,
            "commit": commit,
            "files": list(SOURCE_FILES),
        },
        "registry": parse_registry(texts[REGISTRY_FILE]),
        "builders": parse_builders(texts[BUILDER_FILE]),
        "stop_gradient_edges": parse_stop_edges(texts[STOP_EDGES_FILE]),
    }


def to_json(data: dict[str, object]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


USAGE = "usage: python -m gendoc.evidence.ort_extract SOURCE_DIR TAG COMMIT [OUTPUT]"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (3, 4) or any(a.startswith("-") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    source, tag, commit = Path(args[0]), args[1], args[2]
    output = Path(args[3]) if len(args) == 4 else Path(__file__).with_name("data") / DATA_FILE
    try:
        text = to_json(extract(source, tag=tag, commit=commit))
        write_documents(output.parent, {output.name: text})
    except GendocError as exc:
        print(f"gendoc: error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
