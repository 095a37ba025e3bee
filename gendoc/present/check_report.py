"""What ``gendoc check`` prints: each stale document's bounded diff, then how to fix it."""

from __future__ import annotations

from gendoc.errors import UsageError
from gendoc.model.document_check import CheckReport
from gendoc.present.outputs import CHECK_REPORT
from gendoc.present.render import render_report


def format_check(report: CheckReport, max_diff_lines: int = 200, lang: str = "en") -> str:
    """What ``gendoc check`` prints: each stale file's bounded diff, then how to fix it."""
    if max_diff_lines < 0:
        raise UsageError(f"--max-diff-lines must be 0 or more, not {max_diff_lines}")
    return render_report(CHECK_REPORT, lang, report=report, max_lines=max_diff_lines)
