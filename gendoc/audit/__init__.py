"""Audit the differentiability tags: static lints and numeric evidence.

A tag is a claim about math that is otherwise only reviewed by eye. The
audit checks the claims of the model (:mod:`gendoc.model`) two ways:

* static lints (:mod:`gendoc.audit.lints`), rules ``GD0xx``: contradictions
  visible in the schema alone, such as an integer output tagged
  differentiable. They take milliseconds for all of onnx.
* numeric evidence (:mod:`gendoc.audit.numeric`), rules ``GD1xx``: Jacobians
  estimated by central finite differences with onnx's reference evaluator
  on the inputs of onnx's backend test cases, compared with the tags.
  Evidence, not proof.

Public API, used by the command line and by the site's "Tag audit" pages;
it is kept stable:

``audit_reference(reference, *, domains=(), ops=(), numeric=False,
max_seconds=None, jobs=0, progress=False, cases=None, settings=DEFAULT_SETTINGS)``
    Audit a :class:`~gendoc.model.Reference` and return an :class:`AuditReport`.
    ``domains`` and ``ops`` restrict the scope (``"ai.onnx"`` and ``""`` both
    name the default domain); an unknown one raises
    :class:`~gendoc.errors.UsageError`. ``numeric`` adds the evidence;
    ``max_seconds`` bounds its wall time (operators not reached are reported
    as not evaluated), ``jobs`` is the number of worker processes (0: one per
    available core, 1: in this process), ``progress`` draws a bar on stderr.
    ``cases`` replaces onnx's backend test cases with your own
    :class:`NumericCase` objects. Without ``numeric`` only the static lints
    run (milliseconds for all of onnx). Workers are started with ``spawn``:
    a script that passes ``jobs`` other than 1 needs the usual
    ``if __name__ == "__main__":`` guard.

``Reference.scope(domains, ops)``, ``default_cases(scope)``
    The scope filter and the default numeric cases (onnx's backend test
    cases, collected once per process, when the scope has an onnx domain).
    A ``--schemas`` module may define ``audit_cases()`` returning
    :class:`NumericCase` objects; ``gendoc audit --numeric`` adds them.

``AuditReport``
    ``findings``: a list of :class:`Finding`, sorted worst first, then by
    domain, operator, version, rule and parameter. ``findings_for(domain,
    op)`` selects those of one operator page. ``to_dict()`` is the JSON form
    (stable key order; no timings). ``summary()`` is ``N errors, M warnings,
    K info``. ``numeric`` holds the evidence (a ``NumericResult``: coverage,
    per-pair classes, ``evidence_for(domain, op)``) or ``None``.

``Finding(rule, severity, domain, op, version, parameter, message)``
    ``severity`` is a :class:`Severity` (a ``str`` enum: ``"error"``,
    ``"warning"``, ``"info"``); ``domain`` is ``""`` for the default domain;
    ``parameter`` is ``"input X"``, ``"output Y"`` or ``None``.

``RULES``
    The catalogue of :class:`Rule` objects by id (``GD001``...), each with
    its severity and one-line explanation.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Sequence

from gendoc.audit.cases import NumericCase, backend_cases, is_onnx_domain
from gendoc.audit.evidence import numeric_findings, run_numeric
from gendoc.audit.findings import RULES, Finding, Rule, Severity
from gendoc.audit.lints import lint_reference
from gendoc.audit.numeric import DEFAULT_SETTINGS, ProbeSettings
from gendoc.audit.report import AuditReport
from gendoc.errors import UsageError
from gendoc.model import Reference

__all__ = [
    "RULES",
    "AuditReport",
    "Finding",
    "NumericCase",
    "ProbeSettings",
    "Rule",
    "Severity",
    "audit_reference",
    "default_cases",
]


def default_cases(scope: Reference, *, progress: bool = False) -> tuple[NumericCase, ...]:
    """onnx's backend test cases when the scope has an onnx domain; none otherwise.

    Collecting them takes seconds, so a scope of custom domains skips it.
    """
    if not any(is_onnx_domain(d) for d in scope.domains):
        return ()
    if progress:
        print("collecting onnx's backend test cases...", file=sys.stderr)
    return backend_cases()


def _workers(jobs: int) -> int:
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 or more, not {jobs}")
    if jobs:
        return jobs
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def audit_reference(
    reference: Reference,
    *,
    domains: Sequence[str] = (),
    ops: Sequence[str] = (),
    numeric: bool = False,
    max_seconds: float | None = None,
    jobs: int = 0,
    progress: bool = False,
    cases: Iterable[NumericCase] | None = None,
    settings: ProbeSettings = DEFAULT_SETTINGS,
) -> AuditReport:
    """Lint ``reference`` and, with ``numeric``, weigh finite-difference evidence."""
    if max_seconds is not None and max_seconds <= 0:
        raise UsageError(f"--max-seconds must be positive, not {max_seconds:g}")
    deadline = None if max_seconds is None else time.time() + max_seconds
    workers = _workers(jobs)
    scope = reference.scope(domains, ops)
    findings = lint_reference(scope)
    result = None
    if numeric:
        if cases is None:
            cases = default_cases(scope, progress=progress)
        result = run_numeric(
            scope,
            cases,
            settings=settings,
            workers=workers,
            deadline=deadline,
            progress=progress,
        )
        findings = sorted([*findings, *numeric_findings(scope, result)], key=Finding.sort_key)
    return AuditReport(
        onnx_version=reference.onnx_version,
        domains=tuple(scope.domains),
        ops=tuple(sorted(set(ops))),
        operator_count=sum(1 for _ in scope.operators()),
        findings=findings,
        numeric=result,
    )
