"""The audit's entry points: :func:`audit` for callers, :func:`audit_reference` for a model.

Both return an :class:`~gendoc.audit.report.AuditReport`; neither prints
anything but, when asked to, a progress bar on stderr. The command line
(:mod:`gendoc.commands.audit`) is a thin layer over :func:`audit`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gendoc.audit.findings import Finding
from gendoc.audit.judge import numeric_findings
from gendoc.audit.lints import lint_reference
from gendoc.audit.report import AuditReport
from gendoc.audit.weigh import SourceReport, audit_sources, evidence_findings
from gendoc.errors import UsageError
from gendoc.evidence.cases import NumericCase, backend_cases, is_onnx_domain, module_cases
from gendoc.evidence.numeric import DEFAULT_SETTINGS, ProbeSettings
from gendoc.evidence.pool import run_numeric
from gendoc.model.reference import Reference


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
        raise UsageError(f"the number of worker processes (jobs) must be 0 or more, not {jobs}")
    if jobs:
        return jobs
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class AuditOptions:
    """What to audit and how: the same for :func:`audit`, :func:`audit_reference` and the CLI.

    ``domains`` and ``ops`` restrict the scope (``"ai.onnx"`` and ``""`` both
    name the default domain); an unknown one raises
    :class:`~gendoc.errors.UsageError`. ``numeric`` adds finite differences;
    ``max_seconds`` is their deadline (operators not reached are reported as
    not evaluated; an evaluation still running then is stopped, and reported
    as cut off); ``jobs`` is the number of worker processes (0: one per
    available core, 1: in this process, or in one child process under
    ``max_seconds``, so that it can be stopped). ``evidence`` weighs
    PyTorch, onnxruntime's registry and (with ``numeric``) the finite
    differences into one verdict per parameter (rules ``GD2xx``,
    :mod:`gendoc.audit.weigh`), which then replaces the numeric rules ``GD1xx``.
    """

    domains: Sequence[str] = ()
    ops: Sequence[str] = ()
    numeric: bool = False
    evidence: bool = False
    max_seconds: float | None = None
    jobs: int = 0
    settings: ProbeSettings = DEFAULT_SETTINGS


DEFAULT_OPTIONS = AuditOptions()


def audit_reference(
    reference: Reference,
    options: AuditOptions = DEFAULT_OPTIONS,
    *,
    progress: bool = False,
    cases: Iterable[NumericCase] | None = None,
) -> AuditReport:
    """Lint ``reference`` and weigh the evidence ``options`` ask for.

    ``progress`` draws a bar on stderr; ``cases`` replaces onnx's backend test
    cases. The result does not depend on ``jobs``: the same seed gives the
    same report serially and in parallel.
    """
    max_seconds = options.max_seconds
    if max_seconds is not None and max_seconds <= 0:
        raise UsageError(f"the time budget (max_seconds) must be positive, not {max_seconds:g}")
    deadline = None if max_seconds is None else time.time() + max_seconds
    workers = _workers(options.jobs)
    scope = reference.scope(options.domains, options.ops)
    findings = lint_reference(scope)
    result = None
    if options.numeric:
        if cases is None:
            cases = default_cases(scope, progress=progress)
        result = run_numeric(
            scope,
            cases,
            settings=options.settings,
            workers=workers,
            deadline=deadline,
            progress=progress,
        )
    sources: tuple[SourceReport, ...] = ()
    if options.evidence:
        weighed, sources = evidence_findings(scope, audit_sources(result))
        findings = [*findings, *weighed]
    elif result is not None:
        findings = [*findings, *numeric_findings(scope, result)]
    return AuditReport(
        onnx_version=reference.onnx_version,
        domains=tuple(scope.domains),
        ops=tuple(sorted(set(options.ops))),
        operator_count=sum(1 for _ in scope.operators()),
        findings=sorted(findings, key=Finding.sort_key),
        numeric=result,
        sources=sources,
    )


def audit(
    source: Reference | str | Iterable[str] = (),
    options: AuditOptions = DEFAULT_OPTIONS,
    *,
    progress: bool | None = None,
    cases: Iterable[NumericCase] | None = None,
) -> AuditReport:
    """Audit a model, or onnx's schemas plus those registered by schema modules.

    ``source`` is a :class:`~gendoc.model.reference.Reference` to audit as it is, or
    the names of schema modules (none: onnx's own schemas only) to import
    and collect; with ``options.numeric``, the test cases their
    ``audit_cases()`` offer are probed besides onnx's backend test cases.
    ``progress=None`` draws the bar only when stderr is a terminal. Decide the
    exit status of a CI job with :meth:`AuditReport.exit_status`.
    """
    if progress is None:
        progress = sys.stderr.isatty()
    if isinstance(source, Reference):
        reference = source
        extra: list[NumericCase] = []
    else:
        from gendoc.collect import installed

        modules = [source] if isinstance(source, str) else list(source)
        reference = installed.reference(modules, with_examples=False)
        extra = module_cases(modules) if options.numeric and cases is None else []
    if extra:
        scope = reference.scope(options.domains, options.ops)
        cases = [*extra, *default_cases(scope, progress=progress)]
    return audit_reference(reference, options, progress=progress, cases=cases)
