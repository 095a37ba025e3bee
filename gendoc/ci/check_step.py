"""The action's check step: the committed documents of every language, each in its own folder.

The first language's documents are in the ``output`` folder, every other
language's in ``output/<language>`` (where ``gendoc build --lang`` is told to
write them). The schemas are collected once and rendered per language. A stale
or missing document is listed three ways: in the log with its bounded diff (as
``gendoc check`` prints it, between ``stop-commands`` markers so no line of a
document can act as a workflow command), in the job summary, and as one error
annotation per file, each with the exact ``gendoc build`` command that fixes
it. Exit status: 0 current, 1 stale, 2 bad input (a one-line error).

Environment: ``OUTPUT``, ``LANGUAGES``, ``STYLE``, ``SCHEMAS`` (the action's inputs).
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from gendoc.ci.runner import annotation, append_summary, bounded, schema_modules, workspace_last
from gendoc.errors import GendocError
from gendoc.model.document_check import CheckReport, StaleDocument
from gendoc.present.display import code_block, code_span


def language_folders(output: str, languages: list[str]) -> list[tuple[str, Path]]:
    """Each language and the folder its documents are in: the first in OUTPUT, others below."""
    if not languages:
        raise ValueError("no language given")
    first, *others = languages
    return [(first, Path(output)), *((lang, Path(output) / lang) for lang in others)]


def check_all(output: str, languages: list[str], style: str) -> list[tuple[str, CheckReport]]:
    """The check report of every language, from one collection of the schemas."""
    from gendoc.collect import installed
    from gendoc.commands.check import check_documents
    from gendoc.present.render import RenderOptions, render_documents

    modules = schema_modules()
    reference = installed.reference(modules)
    reports = []
    for lang, folder in language_folders(output, languages):
        options = RenderOptions(style=style, lang=lang)
        documents = render_documents(reference, options)
        reports.append((lang, check_documents(folder, documents, options, modules)))
    return reports


def _state(doc: StaleDocument) -> str:
    if doc.on_disk is None:
        return "missing"
    return "line endings differ (CRLF)" if doc.line_endings_only else "stale"


def summary(reports: list[tuple[str, CheckReport]]) -> str:
    """The job summary's part: per language, up to date, or its stale files and the fix."""
    lines = ["### Operator documents", ""]
    for lang, report in reports:
        where = f"{code_span(lang)} in {code_span(report.out)}"
        if report.ok:
            lines.append(f"- {where}: {report.documents} documents up to date")
            continue
        lines.append(f"- {where}: {len(report.stale)} of {report.documents} documents to update")
        lines += (f"  - {code_span(doc.path)}: {_state(doc)}" for doc in report.stale)
        lines += [
            "",
            "  Regenerate them with:",
            "",
            "  " + code_block(report.fix).replace("\n", "\n  "),
        ]
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    from gendoc.present.check_report import format_check

    workspace_last()
    try:
        reports = check_all(
            os.environ.get("OUTPUT", "docs"),
            os.environ.get("LANGUAGES", "en").split(),
            os.environ.get("STYLE", "gendoc"),
        )
    except (GendocError, ValueError) as exc:
        print(annotation("error", str(exc), title="gendoc check"))
        return 2
    token = secrets.token_hex(16)
    print(f"::stop-commands::{token}")
    for _, report in reports:
        sys.stdout.write(format_check(report))
    print(f"::{token}::")
    stale = [
        (f"{doc.path} is {_state(doc)}; regenerate with: {report.fix}", str(doc.path))
        for _, report in reports
        for doc in report.stale
    ]
    for line in bounded("error", stale, "Stale document"):
        print(line)
    append_summary(summary(reports))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
