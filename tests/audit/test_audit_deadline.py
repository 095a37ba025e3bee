"""``--max-seconds`` is a deadline: an evaluation still running then is stopped, and named.

``tests.custom_schemas.audit_stall``: ``Crash`` ends the process evaluating it,
``Double`` is quick, ``Stall``'s evaluation never returns; they are scheduled in
that order. The budgets leave child processes time to start.
"""

from __future__ import annotations

import time

from gendoc.audit import AuditOptions, AuditReport, Reason, audit_reference
from gendoc.audit.report import format_text
from gendoc.evidence.workers import GRACE
from tests.custom_schemas import audit_stall


def _audit(jobs: int, budget: float, without: str = "") -> tuple[AuditReport, float]:
    options = AuditOptions(numeric=True, jobs=jobs, max_seconds=budget)
    cases = [c for c in audit_stall.cases() if c.name != without]
    began = time.monotonic()
    report = audit_reference(audit_stall.reference(), options, cases=cases)
    return report, time.monotonic() - began


def test_one_worker_replaces_a_dead_one_and_is_stopped_at_the_deadline() -> None:
    budget = 8.0
    report, took = _audit(jobs=1, budget=budget)
    assert budget <= took < budget + GRACE + 3  # stopped, and cleaned up quickly
    numeric = report.numeric
    assert numeric is not None and numeric.timed_out
    why = {s.op: s.cause for s in numeric.not_evaluated}
    assert why["Crash"].reason is Reason.WORKER_FAILED
    assert why["Crash"].message.text == "worker failed: the process ended (exit code 3)"
    assert [e.op for e in numeric.operators] == ["Double"]  # in the worker started next
    assert why["Stall"].reason is Reason.CUT_OFF
    assert (
        "numeric: not evaluated test.audit Stall-1: stopped at the end of the time budget "
        "while it was being evaluated"
    ) in format_text(report)


def test_two_workers_evaluate_one_case_while_the_other_is_cut_off() -> None:
    budget = 5.0
    report, took = _audit(jobs=2, budget=budget, without="crash")
    assert budget <= took < budget + GRACE + 3
    numeric = report.numeric
    assert numeric is not None and numeric.timed_out
    assert [e.op for e in numeric.operators] == ["Double"]
    assert [(s.op, s.cause.reason) for s in numeric.not_evaluated] == [("Stall", Reason.CUT_OFF)]
