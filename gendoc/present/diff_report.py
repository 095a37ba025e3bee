"""``gendoc diff``'s report: a pull-request comment, data for tools or GitHub annotations.

The Markdown and the annotations come from the templates ``cli/diff.md.j2`` and
``cli/diff.github.j2``; which changes become annotations, at which level, is
GitHub's rule (:func:`gendoc.present.annotations.annotations`). The JSON document
holds every change with its fields and its English message.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from gendoc.model.compare import DiffReport, FailOn
from gendoc.present.annotations import annotations
from gendoc.present.change_messages import change_message
from gendoc.present.outputs import DIFF_ANNOTATIONS, DIFF_MARKDOWN
from gendoc.present.render import render_report
from gendoc.present.visible import visible_json

FORMAT_VERSION = 2
"""Version of the ``--format json`` document, raised when its fields change meaning.

2: text changes (``text-changed``, with ``paragraphs``), tag changes listed first.
"""


def report_data(report: DiffReport) -> dict[str, object]:
    """The ``--format json`` document: every change with its fields and English message."""
    return {
        "format_version": FORMAT_VERSION,
        "old": {"source": report.old.source, "onnx_version": report.old.onnx_version},
        "new": {"source": report.new.source, "onnx_version": report.new.onnx_version},
        "summary": {"changes": len(report.changes), "tag_changes": len(report.tag_changes)},
        "changes": [
            {**asdict(c), "kind": c.kind.value, "message": change_message(c)}
            for c in report.ordered
        ],
    }


def format_diff(
    report: DiffReport, fmt: str = "markdown", fail_on: FailOn = FailOn.NEVER, lang: str = "en"
) -> str:
    """The report as ``markdown`` (a pull-request comment), ``json`` or ``github`` annotations."""
    if fmt == "json":
        data = json.dumps(report_data(report), indent=2, sort_keys=True, ensure_ascii=False)
        return visible_json(data) + "\n"
    if fmt == "github":
        shown = annotations(report, fail_on)
        return render_report(DIFF_ANNOTATIONS, lang, report=report, annotations=shown)
    return render_report(DIFF_MARKDOWN, lang, report=report)
