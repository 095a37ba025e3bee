"""Audit the differentiability tags: static lints and numeric evidence.

A tag is a claim about math that is otherwise only reviewed by eye. The
audit checks the claims of the model (:mod:`gendoc.model.reference`) two ways:

* static lints (:mod:`gendoc.audit.lints`), rules ``GD0xx``: contradictions
  visible in the schema alone, such as an integer output tagged
  differentiable. They take milliseconds for all of onnx.
* numeric evidence, rules ``GD1xx``: Jacobians estimated by central finite
  differences with onnx's reference evaluator on the inputs of onnx's
  backend test cases, compared with the tags. Evidence, not proof.
* the evidence verdict (``AuditOptions(evidence=True)``, ``--evidence``), rules ``GD2xx``
  (:mod:`~gendoc.audit.weigh`): PyTorch's autograd, onnxruntime's gradient
  registry and, with ``numeric``, the finite differences weighed by the rule
  table of :mod:`gendoc.evidence.verdict` into one verdict per parameter;
  it then replaces the ``GD1xx`` findings.

One module per step of the numeric part: :mod:`~gendoc.evidence.cases` (where
test cases come from), :mod:`~gendoc.evidence.probe_plan` (which cases per
operator), :mod:`~gendoc.evidence.probe` (finite differences on one model),
:mod:`~gendoc.evidence.pool` (serial or in child processes, progress bar),
:mod:`~gendoc.evidence.workers` (child processes stopped at a deadline),
:mod:`~gendoc.audit.judge` (evidence against tags); their types are in
:mod:`~gendoc.evidence.numeric`, the findings and rules in
:mod:`~gendoc.audit.findings`, the renderings in :mod:`~gendoc.audit.report`.

Public API, used by the command line and by the site's "Tag audit" pages;
it is kept stable:

``audit(source=(), options=AuditOptions(), *, progress=None, cases=None)``
    Audit a :class:`~gendoc.model.reference.Reference`, or onnx's schemas plus those of
    the named schema modules (whose ``audit_cases()``, if any, add
    :class:`NumericCase` objects to the numeric part), and return an
    :class:`AuditReport`. ``progress=None`` draws a bar only when stderr is
    a terminal.

``audit_reference(reference, options=AuditOptions(), *, progress=False, cases=None)``
    Audit a :class:`~gendoc.model.reference.Reference` and return an :class:`AuditReport`.
    ``progress`` draws a bar on stderr. ``cases`` replaces onnx's backend test
    cases with your own :class:`NumericCase` objects.

``AuditOptions(domains=(), ops=(), numeric=False, evidence=False, max_seconds=None, jobs=0,
settings=DEFAULT_SETTINGS)``
    What to audit and how. ``domains`` and ``ops`` restrict the scope
    (``"ai.onnx"`` and ``""`` both name the default domain); an unknown one
    raises :class:`~gendoc.errors.UsageError`. ``numeric`` adds the finite
    differences; ``max_seconds`` is their deadline (operators not reached are
    reported as not evaluated, an evaluation still running is stopped and
    reported as cut off), ``jobs`` is the number of worker processes (0: one
    per available core, 1: in this process, or in one child process under
    ``max_seconds``); ``evidence``
    weighs the sources into one verdict per parameter. Without ``numeric``
    and ``evidence`` only the static lints run (milliseconds for all of
    onnx). Workers are started with ``spawn``: a script that passes ``jobs``
    other than 1 needs the usual ``if __name__ == "__main__":`` guard. The
    seed is fixed (:class:`ProbeSettings`): serial and parallel runs give
    the same report.

``Reference.scope(domains, ops)``, ``default_cases(scope)``
    The scope filter and the default numeric cases (onnx's backend test
    cases, collected once per process, when the scope has an onnx domain).

``AuditReport``
    ``findings``: a list of :class:`Finding`, sorted worst first, then by
    domain, operator, version, rule and parameter. ``findings_for(domain,
    op)`` selects those of one operator page. ``to_dict()`` is the JSON form
    (stable key order; no timings); ``gendoc.audit.report.format_text`` and
    ``format_markdown`` render it in either language. ``exit_status(fail_on)``
    is 1 when a finding is at least as severe as ``fail_on`` (a
    :class:`Severity`; ``None``: never), else 0.
    ``numeric`` holds the evidence (a ``NumericResult``: coverage, per-pair
    :class:`PairClass`, ``evidence_for(domain, op)``) or ``None``.

``Finding(rule, severity, domain, op, version, parameter, text)``
    ``severity`` is a :class:`Severity` (a ``str`` enum: ``"error"``,
    ``"warning"``, ``"info"``); ``domain`` is ``""`` for the default domain;
    ``parameter`` is a :class:`ParameterRef` (``part``, a :class:`Part`, and
    ``name``; ``str()`` gives ``"input X"``) or ``None``. ``text`` is a
    :class:`Message`: ``message_id`` is the English template (a gettext
    message id), ``args`` its arguments, ``message`` the English text; a
    translated page fills ``gettext(f.message_id)`` with ``f.args``.

``RULES``
    The catalogue of :class:`Rule` objects by id (``GD001``...), each with
    its severity and one-line ``title`` (English, and its own message id).
"""

from __future__ import annotations

from gendoc.audit.entry import AuditOptions, audit, audit_reference, default_cases
from gendoc.audit.findings import RULES, Finding, Rule, Severity
from gendoc.audit.messages import Message
from gendoc.audit.report import AuditReport, ReportFormat
from gendoc.evidence.cases import NumericCase
from gendoc.evidence.numeric import DEFAULT_SETTINGS, PairClass, ProbeSettings, Reason
from gendoc.model.reference import ParameterRef, Part

__all__ = [
    "DEFAULT_SETTINGS",
    "RULES",
    "AuditOptions",
    "AuditReport",
    "Finding",
    "Message",
    "NumericCase",
    "PairClass",
    "ParameterRef",
    "Part",
    "ProbeSettings",
    "Reason",
    "ReportFormat",
    "Rule",
    "Severity",
    "audit",
    "audit_reference",
    "default_cases",
]
