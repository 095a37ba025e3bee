"""Run the numeric probes over many operators and weigh the evidence against the tags.

:func:`run_numeric` plans one job per operator, runs the jobs serially or,
one case at a time, in a process pool (``spawn``: a worker holds nothing but
what it is sent, so a script calling it with ``workers > 1`` needs the usual
``if __name__ == "__main__":`` guard), merges the outcomes per operator
version, and :func:`numeric_findings` turns disagreements with the model's
tags into findings.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TextIO

from gendoc.audit.cases import NumericCase, Skipped, plan_jobs
from gendoc.audit.findings import Finding, make_finding, parameter_label
from gendoc.audit.numeric import (
    DEFAULT_SETTINGS,
    EVIDENCE_NOTE,
    CaseOutcome,
    OperatorJob,
    PairClass,
    PairEvidence,
    ProbeSettings,
    evaluate_case,
)
from gendoc.model import Differentiability, Reference, Schema


@dataclass(frozen=True)
class OperatorEvidence:
    """The merged evidence for one operator version, pairs in schema order."""

    domain: str
    op: str
    version: int
    cases: tuple[str, ...]
    pairs: tuple[PairEvidence, ...]
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "cases": list(self.cases),
            "pairs": [pair.to_dict() for pair in self.pairs],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class NumericResult:
    """All numeric evidence of one audit.

    ``with_data`` counts operators in scope that have test cases,
    ``operators`` holds the versions at least one case ran for, and
    ``not_evaluated`` the versions none did, with the reason.
    """

    settings: ProbeSettings
    with_data: int
    operators: tuple[OperatorEvidence, ...]
    not_evaluated: tuple[Skipped, ...]
    timed_out: bool

    @property
    def evaluated(self) -> int:
        """Distinct operators (not versions) with evidence."""
        return len({(e.domain, e.op) for e in self.operators})

    @property
    def case_count(self) -> int:
        return sum(len(e.cases) for e in self.operators)

    def counts(self) -> dict[str, int]:
        totals = {kind.value: 0 for kind in PairClass}
        for evidence in self.operators:
            for pair in evidence.pairs:
                totals[pair.kind.value] += 1
        return totals

    def evidence_for(self, domain: str, op: str) -> list[OperatorEvidence]:
        return [e for e in self.operators if (e.domain, e.op) == (domain, op)]

    def to_dict(self) -> dict[str, object]:
        return {
            "note": EVIDENCE_NOTE,
            "settings": self.settings.to_dict(),
            "coverage": {
                "operators_with_test_data": self.with_data,
                "operators_evaluated": self.evaluated,
                "cases_evaluated": self.case_count,
                "timed_out": self.timed_out,
            },
            "pairs": self.counts(),
            "operators": [e.to_dict() for e in self.operators],
            "not_evaluated": [
                {"domain": s.domain, "op": s.op, "version": s.version, "reason": s.reason}
                for s in self.not_evaluated
            ],
        }


class ProgressBar:
    """A one-line bar redrawn in place; the caller decides whether a terminal is there."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self._draw()

    def advance(self) -> None:
        self.done += 1
        self._draw()

    def _draw(self) -> None:
        filled = self.width * self.done // max(self.total, 1)
        seconds = int(time.monotonic() - self.started)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(
            f"\r[{bar}] {self.done}/{self.total} test cases {seconds // 60}:{seconds % 60:02d}"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * (self.width + 40) + "\r")
        self.stream.flush()


def _schedule(jobs: Sequence[OperatorJob]) -> list[tuple[int, int]]:
    """(job, case) indices: every operator's first case, then every second case, and so on.

    Under a time budget this spreads the evidence over as many operators as
    possible; within a round the largest cases go first, so that a slow one
    does not start last.
    """
    units = [(i, k) for i, job in enumerate(jobs) for k in range(len(job.cases))]
    return sorted(units, key=lambda u: (u[1], -jobs[u[0]].cases[u[1]].cost, u[0]))


def _execute(
    jobs: Sequence[OperatorJob],
    settings: ProbeSettings,
    deadline: float | None,
    workers: int,
    bar: ProgressBar | None,
) -> list[tuple[CaseOutcome, ...]]:
    """Outcomes per job, in case order, whatever order they were computed in.

    Workers take single cases, not whole operators: one operator with slow
    cases (LpPool's reference implementation loops in Python) would
    otherwise keep one core busy long after the other is idle.
    """
    outcomes: list[list[CaseOutcome | None]] = [[None] * len(job.cases) for job in jobs]
    units = _schedule(jobs)
    if workers <= 1 or len(units) <= 1:
        for i, k in units:
            outcomes[i][k] = evaluate_case(jobs[i].cases[k], settings, deadline)
            if bar:
                bar.advance()
        return [tuple(o for o in group if o is not None) for group in outcomes]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(units)), mp_context=context) as pool:
        futures: dict[Future[CaseOutcome], tuple[int, int]] = {
            pool.submit(evaluate_case, jobs[i].cases[k], settings, deadline): (i, k)
            for i, k in units
        }
        for future in as_completed(futures):
            i, k = futures[future]
            try:
                outcomes[i][k] = future.result()
            except Exception as exc:  # a crashed worker costs its case, not the audit
                case = jobs[i].cases[k]
                reason = f"worker failed: {type(exc).__name__}: {exc}"
                outcomes[i][k] = CaseOutcome(case.name, case.version, (), (reason,), False, True)
            if bar:
                bar.advance()
    return [tuple(o for o in group if o is not None) for group in outcomes]


def _in_schema_order(
    pairs: dict[tuple[str, str], PairEvidence], schema: Schema
) -> tuple[PairEvidence, ...]:
    inputs = {p.name: i for i, p in enumerate(schema.inputs)}
    outputs = {p.name: i for i, p in enumerate(schema.outputs)}
    keys = sorted(pairs, key=lambda k: (inputs.get(k[0], -1), outputs.get(k[1], -1), k))
    return tuple(pairs[k] for k in keys)


def _merge(
    reference: Reference,
    jobs: Sequence[OperatorJob],
    outcomes: Sequence[tuple[CaseOutcome, ...]],
) -> tuple[list[OperatorEvidence], list[Skipped], bool]:
    schemas = {(s.domain, s.name, s.since_version): s for s in reference.schemas}
    evidence: list[OperatorEvidence] = []
    not_evaluated: list[Skipped] = []
    timed_out = False
    for job, results in zip(jobs, outcomes, strict=True):
        by_version: dict[int, list[CaseOutcome]] = {}
        for outcome in results:
            by_version.setdefault(outcome.version, []).append(outcome)
            timed_out |= not outcome.complete
        for version, group in sorted(by_version.items()):
            ran = [o for o in group if o.ran]
            if not ran:
                reason = group[0].notes[0] if group[0].notes else "no case could be evaluated"
                not_evaluated.append(Skipped(job.domain, job.op, version, reason))
                continue
            pairs: dict[tuple[str, str], PairEvidence] = {}
            for outcome in ran:
                for pair in outcome.pairs:
                    key = (pair.input, pair.output)
                    pairs[key] = pairs[key].merge(pair) if key in pairs else pair
            schema = schemas[(job.domain, job.op, version)]
            notes = sorted({n for o in group for n in o.notes})
            evidence.append(
                OperatorEvidence(
                    job.domain,
                    job.op,
                    version,
                    tuple(sorted(o.name for o in ran)),
                    _in_schema_order(pairs, schema),
                    tuple(notes),
                )
            )
    return evidence, not_evaluated, timed_out


def run_numeric(
    reference: Reference,
    cases: Iterable[NumericCase],
    *,
    settings: ProbeSettings = DEFAULT_SETTINGS,
    workers: int = 1,
    deadline: float | None = None,
    progress: bool = False,
) -> NumericResult:
    """Probe every operator of ``reference`` that has a case.

    ``deadline`` is a ``time.time()`` value; cases not started by then, and
    inputs not finished, are reported as not evaluated for lack of time.
    """
    jobs, skipped = plan_jobs(reference, cases, settings)
    bar = ProgressBar(sum(len(j.cases) for j in jobs)) if progress and jobs else None
    try:
        outcomes = _execute(jobs, settings, deadline, workers, bar)
    finally:
        if bar:
            bar.close()
    evidence, not_evaluated, timed_out = _merge(reference, jobs, outcomes)
    with_data = len({(j.domain, j.op) for j in jobs} | {(s.domain, s.op) for s in skipped})
    unused = sorted([*skipped, *not_evaluated], key=lambda s: (s.domain, s.op, s.version, s.reason))
    return NumericResult(settings, with_data, tuple(evidence), tuple(unused), timed_out)


_EVIDENCE_KINDS = (PairClass.NONZERO, PairClass.ZERO, PairClass.UNSTABLE)


def _cases(count: int) -> str:
    return f"{count} test case{'' if count == 1 else 's'}"


def _judge(
    evidence: OperatorEvidence, kind: str, name: str, tag: Differentiability
) -> tuple[str, str] | None:
    """The rule and message for one parameter, or ``None`` when evidence agrees or is silent."""
    side = 0 if kind == "input" else 1
    pairs = [
        p for p in evidence.pairs if (p.input, p.output)[side] == name and p.kind in _EVIDENCE_KINDS
    ]
    if not pairs:
        return None
    nonzero = [p for p in pairs if p.kind is PairClass.NONZERO]
    if nonzero:
        best = max(nonzero, key=lambda p: (p.nonzero, p.max_slope))
        what = f"d({best.output})/d({best.input}) is {best.detail} in {_cases(best.cases)}"
        if tag is Differentiability.NON_DIFFERENTIABLE:
            return "GD101", f"tagged non-differentiable, but {what}"
        if tag is Differentiability.UNDEFINED:
            return "GD103", f"undefined; finite differences suggest differentiable: {what}"
        return None
    if any(p.kind is PairClass.UNSTABLE for p in pairs):
        return None
    outputs = ", ".join(dict.fromkeys(p.output for p in pairs))
    inputs = ", ".join(dict.fromkeys(p.input for p in pairs))
    probes = sum(p.probes for p in pairs)
    cases = _cases(max(p.cases for p in pairs))
    what = f"d({outputs})/d({inputs}) is zero at all {probes} probes in {cases}"
    if tag is Differentiability.DIFFERENTIABLE:
        return "GD102", f"tagged differentiable, but {what}"
    if tag is Differentiability.UNDEFINED:
        return "GD103", f"undefined; finite differences suggest non-differentiable: {what}"
    return None


def numeric_findings(reference: Reference, result: NumericResult) -> list[Finding]:
    """Findings where the evidence disagrees with a tag, or suggests one for an undefined tag."""
    schemas = {(s.domain, s.name, s.since_version): s for s in reference.schemas}
    findings: list[Finding] = []
    for evidence in result.operators:
        schema = schemas[(evidence.domain, evidence.op, evidence.version)]
        for kind, params in (("input", schema.inputs), ("output", schema.outputs)):
            for param in params:
                verdict = _judge(evidence, kind, param.name, param.differentiability)
                if verdict:
                    rule, message = verdict
                    findings.append(
                        make_finding(
                            rule,
                            schema.domain,
                            schema.name,
                            schema.since_version,
                            parameter_label(kind, param.name),
                            message,
                        )
                    )
    return findings
