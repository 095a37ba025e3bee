"""The audit report and its three renderings: text, JSON and markdown.

All three are built from :class:`AuditReport` alone, and the site builds its
"Tag audit" pages from :meth:`AuditReport.to_dict`, so every view shows the
same results. Nothing time-dependent goes into the report: two runs over the
same onnx give the same bytes. Findings, rule titles and reasons are
rendered from their message ids and arguments (:mod:`gendoc.audit.messages`),
in English.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from gendoc.audit.findings import RULES, Finding, Severity
from gendoc.audit.weigh import SourceReport
from gendoc.evidence.numeric import EVIDENCE_NOTE, NumericResult
from gendoc.present.outputs import OUTPUTS, Group, Output
from gendoc.present.render import render_report
from gendoc.present.visible import visible_json


class ReportFormat(enum.StrEnum):
    """The renderings of a report."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


@dataclass(frozen=True)
class AuditReport:
    """Findings (sorted worst first) and, with ``--numeric``, the evidence behind them.

    ``sources`` is empty unless the evidence verdict ran (``--evidence``).

    ``domains`` are the audited domains as the model names them (``""`` for
    the default domain), ``ops`` the operator filter (empty: all).
    """

    onnx_version: str
    domains: tuple[str, ...]
    ops: tuple[str, ...]
    operator_count: int
    findings: list[Finding] = field(default_factory=list)
    numeric: NumericResult | None = None
    sources: tuple[SourceReport, ...] = ()
    """With the evidence verdict: each source's status line and the operator versions it
    could not answer and why, in the order weighed."""

    def counts(self) -> dict[Severity, int]:
        totals = dict.fromkeys(Severity, 0)
        for finding in self.findings:
            totals[finding.severity] += 1
        return totals

    def findings_for(self, domain: str, op: str) -> list[Finding]:
        """The findings an operator page links to."""
        return [f for f in self.findings if (f.domain, f.op) == (domain, op)]

    def fails(self, fail_on: Severity | None) -> bool:
        """Whether a finding is at least as severe as ``fail_on`` (``None``: never fail)."""
        if fail_on is None:
            return False
        return any(f.severity.rank <= fail_on.rank for f in self.findings)

    def exit_status(self, fail_on: Severity | None = Severity.ERROR) -> int:
        """The exit status of a CI job: 1 when the report :meth:`fails`, else 0."""
        return 1 if self.fails(fail_on) else 0

    def to_dict(self) -> dict[str, object]:
        return {
            "onnx_version": self.onnx_version,
            "scope": {
                "domains": list(self.domains),
                "ops": list(self.ops),
                "operators": self.operator_count,
            },
            "summary": {severity.value: n for severity, n in self.counts().items()},
            "rules": [
                {
                    "id": r.id,
                    "severity": r.severity.value,
                    "title": r.title,
                    "numeric": r.numeric,
                    "evidence": r.evidence,
                }
                for r in RULES.values()
            ],
            "findings": [f.to_dict() for f in self.findings],
            "numeric": self.numeric.to_dict() if self.numeric else None,
            "sources": [source.to_dict() for source in self.sources],
        }


def _context(report: AuditReport) -> dict[str, object]:
    """What the audit's templates show: the report, every rule, the note on the evidence."""
    return {"report": report, "rules": list(RULES.values()), "evidence_note": EVIDENCE_NOTE}


AUDIT_TEXT = OUTPUTS.register(Output("audit", Group.REPORT, "cli/audit.txt.j2", _context))
AUDIT_MARKDOWN = OUTPUTS.register(
    Output("audit markdown", Group.REPORT, "cli/audit.md.j2", _context)
)


def format_text(report: AuditReport, lang: str = "en") -> str:
    """One line per finding, the numeric coverage and the summary, for a terminal or a log."""
    return render_report(AUDIT_TEXT, lang, report=report)


def format_json(report: AuditReport, lang: str = "en") -> str:
    """The report as data; messages in English, with their ids and arguments to translate."""
    return visible_json(json.dumps(report.to_dict(), indent=2, ensure_ascii=False)) + "\n"


def format_markdown(report: AuditReport, lang: str = "en") -> str:
    """A Markdown page: findings, rules and the numeric evidence, in ``lang``."""
    return render_report(AUDIT_MARKDOWN, lang, report=report)


FORMATTERS: dict[ReportFormat, Callable[[AuditReport, str], str]] = {
    ReportFormat.TEXT: format_text,
    ReportFormat.JSON: format_json,
    ReportFormat.MARKDOWN: format_markdown,
}
