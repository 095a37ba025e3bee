"""``gendoc audit``: audit, print one rendering of the report, return the exit status.

The command line parses its options into these typed arguments; nothing
here knows about argparse, so the same call works from Python.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from gendoc.audit.entry import DEFAULT_OPTIONS, AuditOptions, audit
from gendoc.audit.findings import Severity
from gendoc.audit.report import FORMATTERS, ReportFormat

__all__ = ["FAIL_ON", "ReportFormat", "run"]

FAIL_ON: dict[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "never": None,
}
"""The ``--fail-on`` choices: the least severe finding that fails, or never."""


def run(
    schemas: Sequence[str] = (),
    options: AuditOptions = DEFAULT_OPTIONS,
    *,
    report_format: ReportFormat = ReportFormat.TEXT,
    fail_on: Severity | None = Severity.ERROR,
    lang: str = "en",
    out: TextIO | None = None,
) -> int:
    """Audit, write the report to ``out`` (stdout) and return the exit status.

    The status is 1 when a finding is at least as severe as ``fail_on``, else
    0. A progress bar goes to stderr when it is a terminal.
    """
    report = audit(schemas, options)
    (out or sys.stdout).write(FORMATTERS[report_format](report, lang))
    return report.exit_status(fail_on)
