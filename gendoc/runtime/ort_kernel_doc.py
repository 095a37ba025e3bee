"""onnxruntime's other execution providers (CUDA, DirectML...): their kernels as onnxruntime's
generated kernel table lists them.

The CPU provider's kernels come from the installed package's registry
(:mod:`gendoc.runtime.ort_kernels`); the other providers' registries cannot be read without
their device or platform, so their record is read from ``docs/OperatorKernels.md``, the
table onnxruntime generates from the same registries (``tools/python/gen_opkernel_doc.py``)
and keeps in its repository: a section per provider, a table per section with a row per
kernel (operator, parameters, version range, types per type constraint) under a row per
domain. The record names the commit it was read at, its date and onnxruntime's version
number there; a commit that is not a release is named like onnxruntime's nightly packages
(``1.25.0.dev20260221``). Re-extract it from a clone of onnxruntime (a bare one will do)::

    python -m gendoc.runtime.ort_kernel_doc CLONE [--ref REF] [OUTPUT]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gendoc.errors import UsageError
from gendoc.runtime.ort_kernels import (
    PROVIDER,
    READER_NAMES,
    Kernel,
    KernelTable,
    dump_record,
    from_record,
    load_record,
    provider_label,
)
from gendoc.storage.write import write_documents

DATA_FILE = "ort_provider_kernels.json"
DOC_PATH = "docs/OperatorKernels.md"
REPOSITORY = "microsoft/onnxruntime"

_SECTION = re.compile(r"^## Operators implemented by (\w+)\s*$")
_DOMAIN = re.compile(r"^\|\*\*Operator Domain:\*\* \*([\w.]+)\*\|")
_SPAN = re.compile(r"^(?:(\d+)\+|(\d+)|\[(\d+), (\d+)\])$")
_CONSTRAINT = re.compile(r"^\*\*(\w+)\*\* = (.*)$")


class KernelDocError(UsageError):
    """A line of the kernel table that does not have the layout onnxruntime generates."""


def _span(text: str, where: str) -> tuple[int, int | None]:
    found = _SPAN.match(text.strip())
    if not found:
        raise KernelDocError(f"{where}: version range {text!r} is not N, N+ or [N, M]")
    open_start, single, start, end = found.groups()
    if open_start:
        return int(open_start), None
    if single:
        return int(single), int(single)
    return int(start), int(end)


def _top_level(text: str) -> list[str]:
    """The comma-separated types of ``text``, commas inside a type (``map(int64,tensor(float))``)
    kept."""
    kinds, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            kinds.append(text[start:at].strip())
            start = at + 1
    kinds.append(text[start:].strip())
    return [kind for kind in kinds if kind]


def _types(text: str, where: str) -> dict[str, list[str]]:
    types: dict[str, list[str]] = {}
    for part in text.split("<br/>"):
        if not part.strip():
            continue
        found = _CONSTRAINT.match(part.strip())
        if not found:
            raise KernelDocError(f"{where}: type constraint {part.strip()!r} is not **T** = ...")
        types[found.group(1)] = sorted(set(_top_level(found.group(2))))
    return dict(sorted(types.items()))


def parse(text: str) -> dict[str, dict[str, list[list[Any]]]]:
    """Every provider's kernels in the Markdown ``text``: ``{provider: {"domain|op":
    [[start, end or None, {constraint: [types]}], ...]}}``, the default domain as ``""``,
    each operator's kernels sorted like the CPU record's."""
    providers: dict[str, dict[str, list[list[Any]]]] = {}
    kernels: dict[str, list[list[Any]]] | None = None
    domain: str | None = None
    op = ""
    for number, line in enumerate(text.splitlines(), 1):
        where = f"line {number}"
        section = _SECTION.match(line)
        if section:
            kernels = providers.setdefault(section.group(1), {})
            domain, op = None, ""
            continue
        if kernels is None or not line.startswith("|"):
            continue
        heading = _DOMAIN.match(line)
        if heading:
            domain = "" if heading.group(1) == "ai.onnx" else heading.group(1)
            op = ""
            continue
        cells = line.split("|")
        if len(cells) != 6 or line.startswith("|-") or cells[1].strip() == "Op Name":
            continue
        if domain is None:
            raise KernelDocError(f"{where}: a kernel before any domain row")
        op = cells[1].strip() or op
        if not op:
            raise KernelDocError(f"{where}: a version range before any operator")
        start, end = _span(cells[3], where)
        kernels.setdefault(f"{domain}|{op}", []).append([start, end, _types(cells[4], where)])
    if not providers:
        raise KernelDocError("no section 'Operators implemented by <provider>' found")
    for found in providers.values():
        for rows in found.values():
            rows.sort(key=lambda k: (k[0], -1 if k[1] is None else k[1], json.dumps(k[2])))
    return {name: dict(sorted(found.items())) for name, found in sorted(providers.items())}


def _git(clone: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(clone), *args], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        raise UsageError(f"git {' '.join(args)} in {clone}: {detail.strip()}") from None
    return done.stdout


def record_from_clone(clone: Path, ref: str) -> dict[str, Any]:
    """The record of every provider but CPU at ``ref`` of an onnxruntime clone."""
    commit = _git(clone, "rev-parse", f"{ref}^{{commit}}").strip()
    date = _git(clone, "show", "-s", "--format=%cI", commit).strip()
    number = _git(clone, "show", f"{commit}:VERSION_NUMBER").strip()
    tags = _git(clone, "tag", "--points-at", commit).split()
    release = f"v{number}" in tags
    version = number if release else f"{number}.dev{date[:10].replace('-', '')}"
    providers = parse(_git(clone, "show", f"{commit}:{DOC_PATH}"))
    providers.pop(PROVIDER, None)
    return {
        "onnxruntime": version,
        "commit": commit,
        "date": date,
        "release": release,
        "source": f"{REPOSITORY}/{DOC_PATH}",
        "providers": sorted(providers),
        "kernels": {
            f"{provider}|{key}": rows
            for provider, found in providers.items()
            for key, rows in found.items()
        },
    }


@cache
def load_providers_record() -> dict[str, Any]:
    """The record shipped with gendoc."""
    text = resources.files("gendoc.runtime").joinpath("data", DATA_FILE).read_text("utf-8")
    return json.loads(text)


def provider_names() -> list[str]:
    """The recorded providers' names as readers know them (CUDA, DirectML)."""
    return [provider_label(p) for p in load_providers_record()["providers"]]


def find_provider(name: str) -> str | None:
    """The recorded provider a reader's name stands for (any case; ``Dml``, ``DirectML`` or
    ``DmlExecutionProvider``)."""
    wanted = name.lower().removesuffix("executionprovider")
    for provider in load_providers_record()["providers"]:
        short = provider.removesuffix("ExecutionProvider")
        if wanted in (short.lower(), READER_NAMES.get(short, short).lower()):
            return provider
    return None


@cache
def provider_table(provider: str) -> KernelTable:
    """``provider``'s kernels with the schemas the CPU record reads (the operator versions
    a model's opset import selects are onnxruntime's, whichever provider runs them)."""
    kept = load_providers_record()
    cpu = load_record()
    prefix = f"{provider}|"
    kernels: dict[tuple[str, str], tuple[Kernel, ...]] = {}
    for key, rows in kept["kernels"].items():
        if key.startswith(prefix):
            domain, op = key[len(prefix) :].split("|", 1)
            kernels[domain, op] = tuple(
                Kernel(start, end, tuple((n, tuple(k)) for n, k in types.items()))
                for start, end, types in rows
            )
    schemas = from_record(cpu)
    return KernelTable(
        runtime="onnxruntime",
        version=kept["onnxruntime"],
        commit=kept["commit"],
        released=kept["date"][:10],
        provider=provider,
        live=False,
        opsets=schemas.opsets,
        schema_versions=schemas.schema_versions,
        kernels=kernels,
        tag=f"v{kept['onnxruntime']}" if kept["release"] else kept["commit"],
    )


def main(argv: list[str] | None = None) -> int:
    """Write the record of a clone's kernel table."""
    parser = argparse.ArgumentParser(prog="python -m gendoc.runtime.ort_kernel_doc")
    parser.add_argument("clone", type=Path, help="a clone of onnxruntime (bare or not)")
    parser.add_argument("--ref", default="HEAD", help="the tag or commit to read (HEAD)")
    parser.add_argument("output", nargs="?", type=Path)
    args = parser.parse_intermixed_args(argv)
    try:
        kept = record_from_clone(args.clone, args.ref)
    except UsageError as error:
        print(f"gendoc: {error}", file=sys.stderr)
        return 2
    target = args.output or Path(__file__).parent / "data" / DATA_FILE
    write_documents(target.parent, {target.name: dump_record(kept, "kernels")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
