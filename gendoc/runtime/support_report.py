"""``gendoc support``'s report as text, Markdown (templates ``cli/support.*.j2``) or JSON;
the command builds the report (:mod:`gendoc.commands.support`), the command line prints this."""

from __future__ import annotations

import enum
import json

from gendoc.present.outputs import SUPPORT_MARKDOWN, SUPPORT_TEXT
from gendoc.present.render import render_report
from gendoc.runtime.model_report import SupportReport


class ReportFormat(enum.StrEnum):
    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


def format_support(found: SupportReport, report_format: ReportFormat | str) -> str:
    """The report as text, JSON or Markdown."""
    if ReportFormat(report_format) is ReportFormat.JSON:
        return json.dumps(found.to_dict(), indent=2, ensure_ascii=False) + "\n"
    output = SUPPORT_MARKDOWN if report_format == ReportFormat.MARKDOWN else SUPPORT_TEXT
    return render_report(output, report=found)
