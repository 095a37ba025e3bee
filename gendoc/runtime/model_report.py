"""The report of ``gendoc support``: every operator a model uses, where it runs and trains.

Operators are grouped by domain, name, the version the model's opset import selects and the
types the model feeds them; each group says how many nodes it holds and every runtime's answer.
Each runtime is named with its release and where its data comes from (the installed package,
or a shipped record with its commit and date), and says when that data is older than the
installed onnx.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gendoc.collect.model_file import Arg, ModelFile, NodeUse
from gendoc.collect.schemas import onnx_release
from gendoc.runtime import reference_ops
from gendoc.runtime.answers import Answer, check_node, check_on_provider
from gendoc.runtime.ort_kernels import KernelTable, provider_label
from gendoc.runtime.scoreboard import Scoreboard
from gendoc.runtime.training import Gradients, gradients

# The scoreboard's name of each runtime's backend
SCOREBOARD_BACKEND = {"onnxruntime": "ort", reference_ops.NAME: "onnx-reference"}


@dataclass(frozen=True)
class Runtime:
    """One runtime the report answers for, and how it answers a node."""

    name: str
    label: str
    source: str
    notes: tuple[str, ...]
    check: Callable[[NodeUse], Answer]


@dataclass(frozen=True)
class RuntimeAnswer:
    runtime: str
    status: str
    runs: bool | None
    detail: str
    blocking: tuple[str, ...]
    tests: str


@dataclass(frozen=True)
class OperatorRow:
    """The nodes of one operator version fed the same types."""

    domain: str
    op: str
    version: int | None
    nodes: int
    inputs: tuple[tuple[str, str, str], ...]
    outputs: tuple[tuple[str, str, str], ...]
    answers: tuple[RuntimeAnswer, ...]
    gradients: Gradients | None = None


@dataclass(frozen=True)
class SupportReport:
    model: str
    ir_version: int
    opsets: dict[str, int]
    onnx: str
    runtimes: tuple[Runtime, ...]
    rows: tuple[OperatorRow, ...]
    training: bool = False
    blocking: tuple[tuple[str, str, str], ...] = field(default=())

    @property
    def refused(self) -> list[tuple[OperatorRow, RuntimeAnswer]]:
        return [(row, a) for row in self.rows for a in row.answers if a.runs is False]

    def exit_status(self) -> int:
        """1 when a runtime the report answers for refuses an operator, else 0."""
        return 1 if self.refused else 0

    def to_dict(self) -> dict[str, object]:
        return {
            "model": self.model,
            "ir_version": self.ir_version,
            "opsets": self.opsets,
            "onnx": self.onnx,
            "runtimes": [
                {"name": r.name, "label": r.label, "source": r.source, "notes": list(r.notes)}
                for r in self.runtimes
            ],
            "operators": [_row_dict(row) for row in self.rows],
            **(
                {"blocking": [{"node": w, "op": o, "reason": why} for w, o, why in self.blocking]}
                if self.training
                else {}
            ),
        }


def _row_dict(row: OperatorRow) -> dict[str, object]:
    found: dict[str, object] = {
        "domain": row.domain,
        "op": row.op,
        "version": row.version,
        "nodes": row.nodes,
        "inputs": [{"name": n, "tag": t, "type": k} for n, t, k in row.inputs],
        "outputs": [{"name": n, "tag": t, "type": k} for n, t, k in row.outputs],
        "runtimes": [
            {
                "runtime": a.runtime,
                "status": a.status,
                "runs": a.runs,
                "detail": a.detail,
                "blocking": list(a.blocking),
                "tests": a.tests,
            }
            for a in row.answers
        ],
    }
    if row.gradients is not None:
        found["trains"] = row.gradients.trains
        found["gradients"] = [
            {"input": n, "tag": t, "sources": list(s)} for n, t, s in row.gradients.inputs
        ]
    return found


def _older(data_onnx: str, installed: str) -> bool:
    return onnx_release(data_onnx) < onnx_release(installed)


def onnxruntime_runtime(table: KernelTable, onnx_version: str, newest_opset: int) -> Runtime:
    """onnxruntime's CPU table as a runtime of the report."""
    if table.live:
        source = f"installed onnxruntime {table.version} (commit {table.commit}), its registry"
    else:
        source = (
            f"record of onnxruntime {table.version} (commit {table.commit}, "
            f"released {table.released})"
        )
    notes = []
    if table.opsets.get("", 0) < newest_opset:
        notes.append(
            f"reads opsets up to {table.opsets['']}, older than the installed onnx "
            f"{onnx_version} (opset {newest_opset})"
        )
    return Runtime("onnxruntime", table.label, source, tuple(notes), lambda n: check_node(table, n))


def provider_runtime(table: KernelTable, cpu: KernelTable) -> Runtime:
    """A provider other than CPU, from onnxruntime's generated kernel table: where it has no
    kernel, the CPU table answers (onnxruntime's default fallback)."""
    short = provider_label(table.provider)
    when = "release" if table.tag.startswith("v") else "commit"
    source = (
        f"record of onnxruntime's {short} kernel table (docs/OperatorKernels.md) at {when} "
        f"{table.ref[:10]} of {table.released}"
    )
    notes = [
        f"a node with no {short} kernel is assigned to the CPU provider ({cpu.label}) unless "
        "the session option session.disable_cpu_ep_fallback is set"
    ]
    if table.version != cpu.version:
        notes.append(f"this table is onnxruntime {table.version}'s, the CPU one {cpu.version}'s")
    return Runtime(
        f"onnxruntime:{short}",
        table.label,
        source,
        tuple(notes),
        lambda n: check_on_provider(table, cpu, n),
    )


def reference_runtime(onnx_version: str) -> Runtime:
    return Runtime(
        reference_ops.NAME,
        f"onnx.reference (onnx {onnx_version})",
        f"installed onnx {onnx_version}",
        (),
        reference_ops.check_node,
    )


def _scoreboard_notes(runtime: Runtime, board: Scoreboard, onnx_version: str) -> Runtime:
    backend = board.backends.get(SCOREBOARD_BACKEND.get(runtime.name, ""))
    if backend is None or not _older(backend.onnx, onnx_version):
        return runtime
    note = (
        f"onnx's backend tests ran on {backend.name} {backend.release} with onnx {backend.onnx}, "
        f"older than the installed onnx {onnx_version}"
    )
    return Runtime(
        runtime.name, runtime.label, runtime.source, (*runtime.notes, note), runtime.check
    )


def _tests(runtime: Runtime, node: NodeUse, board: Scoreboard) -> str:
    backend = board.backends.get(SCOREBOARD_BACKEND.get(runtime.name, ""))
    score = backend.scores.get((node.domain, node.op)) if backend else None
    if score is None or not score.total:
        return "unknown"
    return (
        f"passes {score.passed} of onnx's {score.total} tests of {node.op} on {backend.name} "
        f"{backend.release} (scoreboard {board.date[:10]})"
    )


def _params(args: tuple[Arg, ...], node: NodeUse, inputs: bool) -> tuple[tuple[str, str, str], ...]:
    formal = {}
    if node.schema is not None:
        formal = {p.name: p for p in (node.schema.inputs if inputs else node.schema.outputs)}
    rows = []
    for arg in args:
        param = formal.get(arg.param)
        tag = param.differentiability.value if param else "unknown"
        rows.append((arg.param, tag, arg.type or "unknown"))
    return tuple(rows)


def _float_fed(node: NodeUse) -> bool:
    return any(arg.type and "float" in arg.type for arg in node.inputs)


def build_report(
    model: ModelFile,
    runtimes: Sequence[Runtime],
    board: Scoreboard,
    onnx_version: str,
    training: bool = False,
) -> SupportReport:
    """The report for ``model`` on ``runtimes`` (``training``: with the gradient sources)."""
    runtimes = tuple(_scoreboard_notes(r, board, onnx_version) for r in runtimes)
    groups: dict[tuple, list[NodeUse]] = {}
    for node in model.nodes:
        key = (node.domain, node.op, node.since_version, node.inputs, node.outputs)
        groups.setdefault(key, []).append(node)
    rows = []
    blocking = []
    for (domain, op, version, inputs, outputs), nodes in sorted(
        groups.items(), key=lambda item: json.dumps(item[0][:3]) + repr(item[0][3:])
    ):
        node = nodes[0]
        answers = []
        for runtime in runtimes:
            found = runtime.check(node)
            answers.append(
                RuntimeAnswer(
                    runtime.label,
                    found.status.value,
                    found.status.runs,
                    found.detail,
                    found.blocking,
                    _tests(runtime, node, board),
                )
            )
        grads = gradients(node.schema) if training and node.schema is not None else None
        if training and _float_fed(node) and (grads is None or grads.flows is not True):
            why = (
                "no gradient source answers"
                if grads is None or grads.flows is None
                else ("no input gets a gradient")
            )
            blocking += [(n.where, op, why) for n in nodes]
        rows.append(
            OperatorRow(
                domain,
                op,
                version,
                len(nodes),
                _params(inputs, node, True),
                _params(outputs, node, False),
                tuple(answers),
                grads,
            )
        )
    return SupportReport(
        model.path,
        model.ir_version,
        dict(sorted(model.opsets.items())),
        onnx_version,
        runtimes,
        tuple(rows),
        training,
        tuple(sorted(blocking)),
    )
