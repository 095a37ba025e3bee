"""The commands return values: none imports a formatter or a writer, none opens a file to write.

A command's text for people is made by a formatter the command line calls, and
its files are written above the commands (``gendoc.api``, ``cli.py``), so that a
Python caller gets the same values the command line prints or writes. The
source is read, not imported, so a lazy import in a function body counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.package.test_import_stages import PACKAGE, imports

RENDERER = {
    "gendoc.present.render",
    "gendoc.present.render.RenderOptions",
    "gendoc.present.render.render_documents",
}
"""What a command may take of the presentation stage: the documents ``gendoc build``
returns are rendered, and the renderer and its options are the presentation stage's."""

WRITERS = {"gendoc.storage.write.write_documents", "gendoc.console"}
WRITE_CALLS = {"open", "write_text", "write_bytes", "mkdir", "rename", "unlink", "touch"}


def formatters_and_writers(path: Path) -> list[str]:
    """What ``path`` imports or calls to format text or to write a file."""
    found = sorted(
        name
        for name in imports(path)
        if (name.startswith("gendoc.present.") and name not in RENDERER)
        or name.startswith(("gendoc.suggest.describe", *WRITERS))
        or name.rsplit(".", 1)[-1].startswith(("format_", "FORMATTERS"))
    )
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in WRITE_CALLS:
                found.append(f"{called}() at line {node.lineno}")
    return found


def test_no_command_imports_a_formatter_or_writes() -> None:
    commands = sorted((PACKAGE / "commands").glob("*.py"))
    assert len(commands) >= 7
    assert {p.name: formatters_and_writers(p) for p in commands} == {p.name: [] for p in commands}


def test_the_check_sees_a_formatter_a_writer_and_a_write(tmp_path: Path) -> None:
    module = tmp_path / "command.py"
    module.write_text(
        "from gendoc.present.render import RenderOptions, render_documents\n"
        "def run(path):\n"
        "    from gendoc.present.diff_report import format_diff\n"
        "    from gendoc.storage.write import write_documents\n"
        "    from gendoc.suggest.describe import describe\n"
        "    path.write_text('x')\n"
        "    with open(path, 'w'):\n"
        "        pass\n"
    )
    assert formatters_and_writers(module) == [
        "gendoc.present.diff_report",
        "gendoc.present.diff_report.format_diff",
        "gendoc.storage.write.write_documents",
        "gendoc.suggest.describe",
        "gendoc.suggest.describe.describe",
        "write_text() at line 6",
        "open() at line 7",
    ]
