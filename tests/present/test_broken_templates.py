"""A broken template or catalog is one line naming the file and line, exit 2; no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from gendoc.errors import UsageError
from gendoc.present.outputs import CHECK_REPORT
from gendoc.present.render import render_report
from tests.helpers import run_gendoc

BROKEN_TEMPLATES = {
    "unclosed block": ("{% if reference %}\nnever closed\n", 2),  # where the file ends
    "unknown tag": ("line one\n{% frobnicate %}\n", 2),
    "arithmetic on a string": ('one\ntwo\n{{ 1 + "a" }}\n', 3),
    "undefined name": ("one\n{{ nothing.here }}\n", 2),
    "missing attribute": ("{{ reference.schemas[0].nope.x }}\n", 1),
    "missing include": ('one\n{% include "gendoc/missing.md.j2" %}\n', 2),
    "endless recursion": ("{% macro m() %}{{ m() }}{% endmacro %}\n{{ m() }}\n", 1),
    "division by zero": ("\n\n\n{{ 1 // 0 }}\n", 4),
}


@pytest.mark.parametrize("case", sorted(BROKEN_TEMPLATES))
def test_a_broken_user_template_is_one_line(tmp_path: Path, case: str) -> None:
    text, line = BROKEN_TEMPLATES[case]
    template = tmp_path / "templates" / "gendoc" / "Operators.md.j2"
    template.parent.mkdir(parents=True)
    template.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = run_gendoc("build", "--templates", str(tmp_path / "templates"), "--out", str(out))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"gendoc: error: {template}:{line}:"), lines[0]
    assert not out.exists()  # nothing half-written


def test_a_broken_report_template_is_one_line(tmp_path: Path) -> None:
    """The same for a report (``diff``, ``audit``, ``check``) made from a template folder."""
    template = tmp_path / "cli" / "check.txt.j2"
    template.parent.mkdir(parents=True)
    template.write_text("fine\n{{ report.nothing.here }}\n", encoding="utf-8")
    with pytest.raises(UsageError) as refused:
        render_report(CHECK_REPORT, templates=tmp_path, report=None)
    assert str(refused.value).startswith(f"{template}:2: UndefinedError:")
    assert "\n" not in str(refused.value)


BROKEN_CATALOGS = {
    "syntax": 'msgid "Operator"\nbogus line\nmsgstr "算子"\n',
    "unknown charset": (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=no-such-charset\\n"\n\n'
        'msgid "Operator"\nmsgstr "算子"\n'
    ),
    "plural forms": (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=__import__(os);\\n"\n\n'
        'msgid "Operator"\nmsgstr "算子"\n'
    ),
    "not UTF-8": 'msgid "Operator"\nmsgstr "\udcff\udcfe"\n',
}


@pytest.mark.parametrize("case", sorted(BROKEN_CATALOGS))
def test_a_broken_user_catalog_is_one_line(tmp_path: Path, case: str) -> None:
    catalog = tmp_path / "templates" / "locale" / "zh" / "LC_MESSAGES" / "gendoc.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_bytes(BROKEN_CATALOGS[case].encode("utf-8", "surrogateescape"))
    out = tmp_path / "out"
    args = ["build", "--lang", "zh", "--templates", str(tmp_path / "templates"), "--out", str(out)]
    result = run_gendoc(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(catalog) in lines[0], result.stderr
    if case == "syntax":
        assert f"{catalog}:2:" in lines[0]
    assert not out.exists()
