"""Test cases for numeric evidence, and their mapping onto the model.

A :class:`NumericCase` is a single-node model with real inputs. onnx's
backend node test cases are the default source; a schema module passed with
``--schemas`` may add its own by defining ``audit_cases()`` (returning
NumericCase objects), so that custom operators get evidence too.

:func:`plan_jobs` is the thin layer between those cases and
:mod:`gendoc.audit.numeric`: it finds the schema version a case exercises,
maps graph names to formal parameters, decides which inputs may be evaluated
in float64 (those whose types allow ``double``) and picks a bounded,
deterministic set of cases per operator.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import onnx

from gendoc.audit.lints import allowed_types, element_types
from gendoc.audit.numeric import CaseJob, OperatorJob, ProbeSettings, to_value, value_kind
from gendoc.model import Operator, Option, Parameter, Reference, Schema, domain_key

CASES_HOOK = "audit_cases"


@dataclass(frozen=True)
class NumericCase:
    """A single-node model and real inputs for it (one per graph input, in order).

    ``new_ops`` are ``onnx.reference.op_run.OpRun`` subclasses implementing
    operators the reference evaluator does not know; they must be importable
    by name (defined at module level) to reach worker processes.
    """

    name: str
    model: onnx.ModelProto | bytes
    inputs: tuple[Any, ...]
    new_ops: tuple[type, ...] = ()


@dataclass(frozen=True)
class Skipped:
    """An operator version in scope whose test cases could not be used, and why."""

    domain: str
    op: str
    version: int
    reason: str


def is_onnx_domain(domain: str) -> bool:
    """Domains for which onnx ships backend test cases."""
    return domain == "" or domain.startswith("ai.onnx")


@cache
def backend_cases() -> tuple[NumericCase, ...]:
    """onnx's backend node test cases, collected once per process.

    Collecting executes onnx's test-case export functions (several seconds),
    so it happens once, in the parent; workers only receive bytes and arrays.
    Some export functions print or warn: that must not reach a JSON report on
    stdout, so both are silenced.
    """
    with (
        warnings.catch_warnings(),
        np.errstate(all="ignore"),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        warnings.simplefilter("ignore")
        from onnx.backend.test.case.node import collect_testcases

        collected = collect_testcases(None)
    cases = []
    for case in collected:
        # Expanded cases test a function body, not the operator's own schema.
        if "_expanded" in case.name or not case.data_sets or case.model is None:
            continue
        inputs, _ = case.data_sets[0]
        cases.append(NumericCase(case.name, case.model.SerializeToString(), tuple(inputs)))
    return tuple(cases)


def module_cases(modules: Iterable[str]) -> list[NumericCase]:
    """Cases offered by already imported schema modules through ``audit_cases()``."""
    cases: list[NumericCase] = []
    for name in modules:
        hook = getattr(sys.modules.get(name), CASES_HOOK, None)
        if callable(hook):
            cases.extend(hook())
    return cases


def _opset(model: onnx.ModelProto, domain: str) -> int | None:
    for opset in model.opset_import:
        if (opset.domain or "") in ({domain} if domain else {"", "ai.onnx"}):
            return int(opset.version)
    return None


def _formal(params: Sequence[Parameter], position: int) -> Parameter | None:
    """The formal parameter at a node position; a trailing variadic takes the rest."""
    if params and params[-1].option is Option.VARIADIC and position >= len(params) - 1:
        return params[-1]
    return params[position] if position < len(params) else None


def _allows_double(schema: Schema, param: Parameter) -> bool:
    types = allowed_types(schema, param)
    return types is not None and any("double" in element_types(t) for t in types)


@dataclass(frozen=True)
class _Candidate:
    job: CaseJob
    covers: frozenset[tuple[int, str, str]]


def _candidate(
    case: NumericCase, model: onnx.ModelProto, node: onnx.NodeProto, schema: Schema
) -> _Candidate:
    initialized = {t.name for t in model.graph.initializer}
    graph_inputs = [v.name for v in model.graph.input if v.name not in initialized]
    values = [to_value(v) for v in case.inputs]
    formal_inputs: dict[str, set[str]] = {}
    for position, name in enumerate(node.input):
        param = _formal(schema.inputs, position)
        if name and param is not None:
            formal_inputs.setdefault(name, set()).add(param.name)
    notes: list[str] = []
    input_params: list[tuple[str, str]] = []
    float64: list[str] = []
    covers: set[tuple[int, str, str]] = set()
    by_name = {p.name: p for p in schema.inputs}
    for name, value in zip(graph_inputs, values, strict=False):
        formal = sorted(formal_inputs.get(name, ()))
        if len(formal) > 1:
            notes.append(f"one graph input feeds {', '.join(formal)}; not attributed")
            continue
        if not formal:
            continue
        param = by_name[formal[0]]
        input_params.append((name, param.name))
        kind, dtype = value_kind(value)
        if kind != "float":
            continue
        covers.add((schema.since_version, "input", param.name))
        if dtype == "float64":
            continue
        if _allows_double(schema, param):
            float64.append(name)
        else:
            notes.append(f"input {name} kept in {dtype}: its types do not include double")
    output_params = []
    for position, name in enumerate(node.output):
        param = _formal(schema.outputs, position)
        if name and param is not None:
            output_params.append((name, param.name))
            if covers:  # an output only gains evidence from a case with a float input
                covers.add((schema.since_version, "output", param.name))
    job = CaseJob(
        name=case.name,
        version=schema.since_version,
        model=model.SerializeToString(),
        inputs=tuple(values),
        input_params=tuple(input_params),
        output_params=tuple(output_params),
        float64_inputs=tuple(float64),
        notes=tuple(notes),
        new_ops=tuple(case.new_ops),
    )
    return _Candidate(job, frozenset(covers))


def _select(candidates: list[_Candidate], settings: ProbeSettings) -> list[CaseJob]:
    """Greedy cover of (version, parameter) first, cheapest first; then fill up to ``limit``.

    Many operators have dozens of cases that differ in attributes only; the
    cover keeps every optional input and every tested version in view. Cases
    without a floating-point input come last: they can only say "not-float".
    The order is kept: under a time budget the covering cases run first.
    """
    pool = sorted(candidates, key=lambda c: (not c.covers, c.job.cost, c.job.name))
    chosen: list[_Candidate] = []
    covered: set[tuple[int, str, str]] = set()
    limit = settings.max_cases
    while len(chosen) < limit:
        best = max(pool, key=lambda c: len(c.covers - covered), default=None)
        if best is None or not best.covers - covered:
            break
        chosen.append(best)
        covered |= best.covers
        pool.remove(best)
    affordable = [c for c in pool if c.job.cost <= settings.max_fill_elements]
    chosen.extend(affordable[: limit - len(chosen)])
    return [c.job for c in chosen]


def plan_jobs(
    reference: Reference, cases: Iterable[NumericCase], settings: ProbeSettings
) -> tuple[list[OperatorJob], list[Skipped]]:
    """One job per operator of ``reference`` that has usable cases, and what was skipped.

    Cases for operators outside ``reference`` (the selected scope) are ignored.
    """
    operators: dict[tuple[str, str], Operator] = {
        (op.domain, op.name): op for op in reference.operators()
    }
    found: dict[tuple[str, str], list[_Candidate]] = {}
    skipped: list[Skipped] = []
    for case in cases:
        model = case.model
        if isinstance(model, bytes):
            model = onnx.ModelProto.FromString(model)
        if len(model.graph.node) != 1:
            continue
        node = model.graph.node[0]
        domain = domain_key(node.domain)
        operator = operators.get((domain, node.op_type))
        if operator is None:
            continue
        opset = _opset(model, domain)
        schema = next(
            (s for s in reversed(operator.versions) if opset and s.since_version <= opset),
            None,
        )
        if schema is None:
            skipped.append(
                Skipped(domain, node.op_type, opset or 0, f"no version for opset {opset}")
            )
            continue
        found.setdefault((domain, node.op_type), []).append(_candidate(case, model, node, schema))
    jobs = [
        OperatorJob(domain, op, tuple(_select(candidates, settings)))
        for (domain, op), candidates in sorted(found.items())
    ]
    return jobs, skipped
