"""Running the planned cases: serially or in a process pool, against a deadline.

:func:`run_numeric` plans one job per operator (:mod:`gendoc.evidence.probe_plan`),
runs the jobs one case at a time, serially or in child processes
(:mod:`gendoc.evidence.workers`, ``spawn``: a script calling it with ``workers > 1``
or a deadline needs the usual ``if __name__ == "__main__":`` guard), and
merges the outcomes per operator version. Outcomes are put back in plan
order whatever order they finish in, so serial and parallel runs give the
same result.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence

from tqdm import tqdm

from gendoc.catalogs.i18n import Message, renamed
from gendoc.evidence.cases import NumericCase
from gendoc.evidence.numeric import (
    DEFAULT_SETTINGS,
    CaseOutcome,
    NumericResult,
    OperatorEvidence,
    PairEvidence,
    ProbeSettings,
    Reason,
    Skipped,
    cause,
)
from gendoc.evidence.probe import probe_model
from gendoc.evidence.probe_plan import CaseJob, OperatorJob, plan_jobs
from gendoc.evidence.workers import CUT_OFF, DONE, FAILED, Finished, run_tasks
from gendoc.model.reference import Reference, Schema


def evaluate_case(case: CaseJob, settings: ProbeSettings, deadline: float | None) -> CaseOutcome:
    """Probe one case and report in formal parameter names: what a worker process runs."""
    if deadline is not None and time.time() > deadline:
        return CaseOutcome(case.name, case.version, (), (), cause(Reason.OUT_OF_TIME), False)
    evidence = probe_model(
        case.model,
        case.inputs,
        new_ops=case.new_ops,
        float64_inputs=case.float64_inputs,
        settings=settings,
        seed_name=case.name,
        deadline=deadline,
    )
    inputs, outputs = dict(case.input_params), dict(case.output_params)
    pairs = tuple(
        pair.renamed(inputs[pair.input], outputs[pair.output])
        for pair in evidence.pairs
        if pair.input in inputs and pair.output in outputs
    )
    # Notes name graph inputs; the report speaks of formal parameters.
    notes = tuple(renamed(note, inputs, "input") for note in (*case.notes, *evidence.notes))
    return CaseOutcome(case.name, case.version, pairs, notes, evidence.failure, evidence.complete)


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
    bar: tqdm,
) -> list[tuple[CaseOutcome, ...]]:
    """Outcomes per job, in case order, whatever order they were computed in.

    Workers take single cases, not whole operators: one operator with slow
    cases (LpPool's reference implementation loops in Python) would
    otherwise keep one core busy long after the other is idle. Under a
    deadline the cases run in child processes even with one worker, so that
    one still running then can be stopped (:mod:`gendoc.evidence.workers`).
    """
    outcomes: list[list[CaseOutcome | None]] = [[None] * len(job.cases) for job in jobs]
    units = _schedule(jobs)
    if deadline is None and (workers <= 1 or len(units) <= 1):
        for i, k in units:
            outcomes[i][k] = evaluate_case(jobs[i].cases[k], settings, deadline)
            bar.update()
        return [tuple(o for o in group if o is not None) for group in outcomes]
    tasks = [(jobs[i].cases[k], settings, deadline) for i, k in units]
    for finished in run_tasks(evaluate_case, tasks, workers=max(workers, 1), deadline=deadline):
        i, k = units[finished.index]
        outcomes[i][k] = _outcome(jobs[i].cases[k], finished)
        bar.update()
    return [tuple(o for o in group if o is not None) for group in outcomes]


def _outcome(case: CaseJob, finished: Finished) -> CaseOutcome:
    """A case's outcome: its result, or why it has none (a worker that failed costs its case,
    not the audit)."""
    if finished.state == DONE:
        return finished.value
    if finished.state == FAILED:
        return CaseOutcome(
            case.name, case.version, (), (), cause(Reason.WORKER_FAILED, error=finished.value), True
        )
    why = cause(Reason.CUT_OFF if finished.state == CUT_OFF else Reason.OUT_OF_TIME)
    return CaseOutcome(case.name, case.version, (), (), why, False)


def _in_schema_order(
    pairs: dict[tuple[str, str], PairEvidence], schema: Schema
) -> tuple[PairEvidence, ...]:
    inputs = {p.name: i for i, p in enumerate(schema.inputs)}
    outputs = {p.name: i for i, p in enumerate(schema.outputs)}
    keys = sorted(pairs, key=lambda k: (inputs.get(k[0], -1), outputs.get(k[1], -1), k))
    return tuple(pairs[k] for k in keys)


def _notes(group: Sequence[CaseOutcome]) -> tuple[Message, ...]:
    """Every note of a version's cases, and why those that did not run failed, once each."""
    notes = {note for outcome in group for note in outcome.notes}
    notes |= {o.failure.message for o in group if o.failure is not None}
    return tuple(sorted(notes, key=lambda note: (note.text, note.id)))


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
            ran = [o for o in group if o.failure is None]
            if not ran:
                why = group[0].failure or cause(Reason.NO_CASE_RAN)
                not_evaluated.append(Skipped(job.domain, job.op, version, why))
                continue
            pairs: dict[tuple[str, str], PairEvidence] = {}
            for outcome in ran:
                for pair in outcome.pairs:
                    key = (pair.input, pair.output)
                    pairs[key] = pairs[key].merge(pair) if key in pairs else pair
            schema = schemas[(job.domain, job.op, version)]
            evidence.append(
                OperatorEvidence(
                    job.domain,
                    job.op,
                    version,
                    tuple(sorted(o.name for o in ran)),
                    _in_schema_order(pairs, schema),
                    _notes(group),
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
    inputs not finished, are reported as not evaluated for lack of time, and
    cases still running then are stopped and reported as cut off.
    ``progress`` draws a bar on stderr (the caller knows whether a terminal is there).
    """
    jobs, skipped = plan_jobs(reference, cases, settings)
    total = sum(len(j.cases) for j in jobs)
    with tqdm(
        total=total,
        desc="test cases",
        unit="case",
        file=sys.stderr,
        disable=not (progress and total),
        leave=False,
        dynamic_ncols=True,
    ) as bar:
        outcomes = _execute(jobs, settings, deadline, workers, bar)
    evidence, not_evaluated, timed_out = _merge(reference, jobs, outcomes)
    with_data = len({(j.domain, j.op) for j in jobs} | {(s.domain, s.op) for s in skipped})
    unused = sorted([*skipped, *not_evaluated], key=Skipped.sort_key)
    return NumericResult(settings, with_data, tuple(evidence), tuple(unused), timed_out)
