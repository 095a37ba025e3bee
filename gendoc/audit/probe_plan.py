"""Planning: which test cases to probe for each operator, and how.

:func:`plan_jobs` is the layer between test cases (:mod:`gendoc.audit.cases`)
and probing (:mod:`gendoc.audit.probe`): it finds the schema version a case
exercises, maps graph names to formal parameters, decides which inputs may
be evaluated in float64 (those whose types allow ``double``) and picks a
bounded, deterministic set of cases per operator, covering cases first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import onnx

from gendoc.audit.cases import NumericCase
from gendoc.audit.lints import allowed_types, element_types_of
from gendoc.audit.messages import N_, Message, say
from gendoc.audit.numeric import ProbeSettings, Reason, Skipped, cause
from gendoc.audit.probe import Value, ValueKind, element_count, to_value, value_type
from gendoc.model.reference import (
    Operator,
    Option,
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
    domain_key,
)


@dataclass(frozen=True)
class CaseJob:
    """One test case, ready for a worker: bytes and arrays, no onnx objects.

    ``input_params``/``output_params`` map graph names to the formal
    parameters of schema version ``version``; graph inputs missing from
    ``input_params`` (one name feeding two parameters) are not reported.
    """

    name: str
    version: int
    model: bytes
    inputs: tuple[Value, ...]
    input_params: tuple[tuple[str, str], ...]
    output_params: tuple[tuple[str, str], ...]
    float64_inputs: tuple[str, ...]
    notes: tuple[Message, ...] = ()
    new_ops: tuple[type, ...] = ()

    @property
    def cost(self) -> int:
        """Floating-point input elements: a rough measure of the work to probe the case."""
        return sum(element_count(v) for v in self.inputs if value_type(v).kind is ValueKind.FLOAT)


@dataclass(frozen=True)
class OperatorJob:
    """The selected test cases of one operator, covering cases first."""

    domain: str
    op: str
    cases: tuple[CaseJob, ...]


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
    return types is not None and any("double" in element_types_of(t) for t in types)


@dataclass(frozen=True)
class _Candidate:
    job: CaseJob
    covers: frozenset[tuple[int, ParameterRef]]


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
    notes: list[Message] = []
    input_params: list[tuple[str, str]] = []
    float64: list[str] = []
    covers: set[tuple[int, ParameterRef]] = set()
    by_name = {p.name: p for p in schema.inputs}
    for name, value in zip(graph_inputs, values, strict=False):
        formal = sorted(formal_inputs.get(name, ()))
        if len(formal) > 1:
            notes.append(
                say(N_("one graph input feeds {params}; not attributed"), params=", ".join(formal))
            )
            continue
        if not formal:
            continue
        param = by_name[formal[0]]
        input_params.append((name, param.name))
        kind, dtype = value_type(value)
        if kind is not ValueKind.FLOAT:
            continue
        covers.add((schema.since_version, ParameterRef(Part.INPUT, param.name)))
        if dtype == "float64":
            continue
        if _allows_double(schema, param):
            float64.append(name)
        else:
            notes.append(
                say(
                    N_("input {input} kept in {dtype}: its types do not include double"),
                    input=name,
                    dtype=dtype,
                )
            )
    output_params = []
    for position, name in enumerate(node.output):
        param = _formal(schema.outputs, position)
        if name and param is not None:
            output_params.append((name, param.name))
            if covers:  # an output only gains evidence from a case with a float input
                covers.add((schema.since_version, ParameterRef(Part.OUTPUT, param.name)))
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
    covered: set[tuple[int, Part, str]] = set()
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
            why = cause(Reason.NO_VERSION, opset=opset or 0)
            skipped.append(Skipped(domain, node.op_type, opset or 0, why))
            continue
        found.setdefault((domain, node.op_type), []).append(_candidate(case, model, node, schema))
    jobs = [
        OperatorJob(domain, op, tuple(_select(candidates, settings)))
        for (domain, op), candidates in sorted(found.items())
    ]
    return jobs, skipped
