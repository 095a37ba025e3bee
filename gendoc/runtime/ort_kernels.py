"""onnxruntime's CPU kernel registry: which operator versions have a kernel, for which types.

A kernel is registered for an operator's version range and a list of types per type
constraint. onnxruntime picks the kernel by the ``since_version`` of the schema the model's
opset import selects in onnxruntime's own copy of onnx's schemas, so the record keeps those
versions too, with the newest opset onnxruntime reads per domain. The record is made from the
installed package's own registry (``get_all_opkernel_def()``)::

    python -m gendoc.runtime.ort_kernels --released YYYY-MM-DD [OUTPUT]

``--released`` is the date the release was published (PyPI lists it; the wheel's files
carry it too). With onnxruntime installed, :func:`kernel_table` reads that version live.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gendoc.storage.write import write_documents

DATA_FILE = "ort_cpu_kernels.json"
PROVIDER = "CPUExecutionProvider"
# onnxruntime's bound for "no end version" (INT_MAX)
_OPEN_END = 2**31 - 1
# Operators onnxruntime resolves when it loads the graph, so no kernel is registered for them:
# its Graph constructor turns every Constant node into an initializer
# (onnxruntime/core/graph/graph.cc).
RESOLVED_AT_LOAD = frozenset({("", "Constant")})
# The names readers know providers by, where onnxruntime's differs (DmlExecutionProvider)
READER_NAMES = {"Dml": "DirectML"}


def provider_label(provider: str) -> str:
    """``CUDA`` for ``CUDAExecutionProvider``, ``DirectML`` for ``DmlExecutionProvider``."""
    short = provider.removesuffix("ExecutionProvider")
    return READER_NAMES.get(short, short)


@dataclass(frozen=True)
class Kernel:
    """One registered kernel: versions ``start`` to ``end`` (None: open), types per constraint."""

    start: int
    end: int | None
    types: tuple[tuple[str, tuple[str, ...]], ...]

    def covers(self, since_version: int) -> bool:
        """onnxruntime's rule (KernelRegistry::VerifyKernelDef): the kernel starts at the
        schema's version, or starts before it and has a closed end at or after it."""
        if self.start == since_version:
            return True
        return self.start < since_version and self.end is not None and self.end >= since_version


@dataclass(frozen=True)
class KernelTable:
    """One runtime release's kernels for one execution provider."""

    runtime: str
    version: str
    commit: str
    released: str
    provider: str
    live: bool
    opsets: dict[str, int]
    schema_versions: dict[tuple[str, str], tuple[int, ...]]
    kernels: dict[tuple[str, str], tuple[Kernel, ...]]
    tag: str = ""
    """The tag or commit of onnxruntime's repository the table is read at (``v{version}``
    when empty: a release)."""

    @property
    def ref(self) -> str:
        return self.tag or f"v{self.version}"

    @property
    def label(self) -> str:
        return f"{self.runtime} {self.version} {provider_label(self.provider)}"

    def since_version(self, domain: str, op: str, opset: int) -> int | None:
        """The version of ``op`` that ``opset`` selects in the runtime's schemas, if any."""
        found = [v for v in self.schema_versions.get((domain, op), ()) if v <= opset]
        return max(found) if found else None


def _domain(name: str) -> str:
    return "" if name == "ai.onnx" else name


def extract(kernel_defs: Any, schemas: Any) -> dict[str, Any]:
    """The record's ``operators`` and ``opsets`` from onnxruntime's kernel and schema lists."""
    operators: dict[str, dict[str, Any]] = {}
    opsets: dict[str, int] = {}
    for schema in schemas:
        domain = _domain(schema.domain)
        entry = operators.setdefault(f"{domain}|{schema.name}", {"versions": [], "kernels": []})
        entry["versions"].append(schema.since_version)
        opsets[domain] = max(opsets.get(domain, 0), schema.since_version)
    for kernel in kernel_defs:
        if kernel.provider != PROVIDER:
            continue
        start, end = kernel.version_range
        entry = operators.setdefault(
            f"{_domain(kernel.domain)}|{kernel.op_name}", {"versions": [], "kernels": []}
        )
        types = {
            name: sorted(set(kinds)) for name, kinds in sorted(kernel.type_constraints.items())
        }
        entry["kernels"].append([start, None if end >= _OPEN_END else end, types])
    for entry in operators.values():
        entry["versions"] = sorted(set(entry["versions"]))
        entry["kernels"].sort(key=lambda k: (k[0], -1 if k[1] is None else k[1], json.dumps(k[2])))
    return {"opsets": dict(sorted(opsets.items())), "operators": dict(sorted(operators.items()))}


def _installed() -> tuple[str, str, dict[str, Any]]:
    """The installed onnxruntime's version, commit and registry (ImportError without it)."""
    import onnxruntime
    from onnxruntime.capi import onnxruntime_pybind11_state as state

    info = onnxruntime.get_build_info()
    commit = re.search(r"git-commit-id=([0-9a-f]+)", info)
    data = extract(state.get_all_opkernel_def(), state.get_all_operator_schema())
    return onnxruntime.__version__, commit.group(1) if commit else "", data


def dump_record(kept: dict[str, Any], rows: str) -> str:
    """A record as JSON with one line per entry of ``kept[rows]``: small diffs between releases."""
    head = {key: value for key, value in kept.items() if key != rows}
    lines = [f"{json.dumps(key)}: {json.dumps(value)}" for key, value in kept[rows].items()]
    body = ",\n".join(lines)
    return json.dumps(head)[:-1] + f', "{rows}": {{\n{body}\n}}}}\n'


def from_record(kept: dict[str, Any], live: bool = False) -> KernelTable:
    """The table a record (or a live reading) holds."""
    versions: dict[tuple[str, str], tuple[int, ...]] = {}
    kernels: dict[tuple[str, str], tuple[Kernel, ...]] = {}
    for key, entry in kept["operators"].items():
        domain, op = key.split("|", 1)
        versions[domain, op] = tuple(entry["versions"])
        kernels[domain, op] = tuple(
            Kernel(start, end, tuple((name, tuple(kinds)) for name, kinds in types.items()))
            for start, end, types in entry["kernels"]
        )
    return KernelTable(
        runtime="onnxruntime",
        version=kept["onnxruntime"],
        commit=kept["commit"],
        released=kept.get("released", ""),
        provider=kept["provider"],
        live=live,
        opsets=dict(kept["opsets"]),
        schema_versions=versions,
        kernels=kernels,
    )


@cache
def load_record() -> dict[str, Any]:
    """The record shipped with gendoc."""
    text = resources.files("gendoc.runtime").joinpath("data", DATA_FILE).read_text("utf-8")
    return json.loads(text)


@cache
def kernel_table(prefer_installed: bool = True) -> KernelTable:
    """The installed onnxruntime's CPU table when there is one, else the shipped record's."""
    if prefer_installed:
        try:
            version, commit, data = _installed()
        except ImportError:
            pass
        else:
            kept = {"onnxruntime": version, "commit": commit, "provider": PROVIDER, **data}
            return from_record(kept, live=True)
    return from_record(load_record())


def main(argv: list[str] | None = None) -> int:
    """Write the installed onnxruntime's CPU registry as the record."""
    parser = argparse.ArgumentParser(prog="python -m gendoc.runtime.ort_kernels")
    parser.add_argument("--released", required=True, help="the release's date, YYYY-MM-DD")
    parser.add_argument("output", nargs="?", type=Path)
    args = parser.parse_args(argv)
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.released):
        parser.error("--released wants a date YYYY-MM-DD")
    version, commit, data = _installed()
    kept = {
        "onnxruntime": version,
        "commit": commit,
        "released": args.released,
        "provider": PROVIDER,
        "source": "onnxruntime.capi.onnxruntime_pybind11_state.get_all_opkernel_def()",
        **data,
    }
    target = args.output or Path(__file__).parent / "data" / DATA_FILE
    write_documents(target.parent, {target.name: dump_record(kept, "operators")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
