"""The package's tree shows its stages: few modules at the top, no two modules of one name."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gendoc"
# Modules every package may have; their names say nothing about what they hold.
GENERIC = {"__init__.py", "__main__.py"}


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_top_level_holds_the_api_and_the_command_line_and_little_else() -> None:
    top = [p.name for p in modules() if p.parent == PACKAGE]
    assert {"__init__.py", "cli.py"} <= set(top)
    assert len(top) <= 8, top


def test_no_two_modules_share_a_name() -> None:
    names = Counter(p.name for p in modules() if p.name not in GENERIC)
    assert [name for name, count in names.items() if count > 1] == []


def test_every_stage_is_a_package_with_a_docstring() -> None:
    for folder in sorted(p for p in PACKAGE.iterdir() if p.is_dir()):
        if folder.name in {"__pycache__", "templates"} or not any(folder.glob("*.py")):
            continue
        init = (folder / "__init__.py").read_text(encoding="utf-8")
        assert init.startswith('"""'), folder
