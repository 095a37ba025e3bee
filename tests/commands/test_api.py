"""The typed commands, called from Python the way README's "From Python" section shows."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import gendoc
from gendoc.commands.build import build_documents

ROOT = Path(__file__).resolve().parents[2]

INVENTORY = {
    "build": "function",
    "check": "function",
    "export": "function",
    "diff": "function",
    "format_check": "function",
    "format_diff": "function",
    "RenderOptions": "class",
    "FailOn": "class",
    "AuditOptions": "class",
    "AuditReport": "class",
    "Strength": "class",
    "Suggested": "class",
    "audit": "package",
    "suggest": "package",
}
"""The public API as README and CHANGELOG advertise it: each name, and what it is."""

MODULES = (
    "gendoc.api",
    "gendoc.commands.build",
    "gendoc.commands.check",
    "gendoc.commands.export",
    "gendoc.commands.diff",
    "gendoc.commands.suggest",
    "gendoc.audit.entry",
    "gendoc.suggest.checkout",
    "gendoc.suggest.result",
    "gendoc.present.render",
    "gendoc.model.snapshot",
)


def test_the_exported_names_are_the_inventory_even_after_every_module_is_imported() -> None:
    assert gendoc.__all__ == sorted(INVENTORY)
    for name in MODULES:
        importlib.import_module(name)  # importing a submodule sets an attribute on the package
    for name, kind in INVENTORY.items():
        value = getattr(gendoc, name)
        if kind == "package":
            # a subpackage holds the function of its own name (``gendoc.audit.audit``)
            assert isinstance(value, type(gendoc)), name
            assert callable(getattr(value, name)), name
            assert name in value.__all__, name
        else:
            assert isinstance(value, type) == (kind == "class"), name
            assert callable(value) and not isinstance(value, type(gendoc)), name


def _dotted(node: ast.expr) -> str | None:
    """``gendoc.audit.audit`` for that chain of attributes; None when it is not one."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _advertised(text: str) -> set[str]:
    """The names a Python example uses from gendoc: ``gendoc.x.y``, ``from gendoc.m import y``."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gendoc"):
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted and dotted.startswith("gendoc."):
                found.add(dotted)
    return found


def _resolves(dotted: str) -> bool:
    """Whether ``gendoc.a.b`` is there, each step as a user's code takes it (``getattr``)."""
    value = gendoc
    for part in dotted.split(".")[1:]:
        if not hasattr(value, part):
            importlib.import_module(f"{value.__name__}.{part}")  # a submodule not imported yet
        value = getattr(value, part)
    return True


def test_every_name_of_the_readme_example_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    examples = re.findall(r"```python\n(.*?)```", section, re.S)
    names = set().union(*map(_advertised, examples))
    assert {"gendoc.build", "gendoc.audit.audit", "gendoc.suggest.suggest"} <= names
    assert all(_resolves(n) for n in sorted(names))
    top = {n.split(".")[1] for n in names if n.count(".") == 1} - {"__version__"}
    assert top <= set(gendoc.__all__)


def test_every_name_the_changelog_advertises_exists() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    api = re.search(r"Typed Python API \((.*?)\)\.", changelog)
    assert api is not None
    names = re.findall(r"`([\w.]+)`", api[1])
    assert names and all(_resolves(n if n.startswith("gendoc.") else f"gendoc.{n}") for n in names)


def test_build_check_export_and_diff_from_python(tmp_path: Path) -> None:
    options = gendoc.RenderOptions(lang="zh")
    written = gendoc.build(tmp_path / "docs", options)
    assert sorted(p.name for p in written) == [
        "Changelog-ml.md",
        "Changelog.md",
        "Operators-ml.md",
        "Operators.md",
    ]
    # gendoc.build is the build command's documents, written; the command writes nothing
    before = sorted(tmp_path.rglob("*"))
    documents = build_documents(options)
    assert sorted(tmp_path.rglob("*")) == before
    assert {n: t.encode("utf-8") for n, t in documents.items()} == {
        p.name: p.read_bytes() for p in written
    }
    report = gendoc.check(tmp_path / "docs", options)
    assert report.ok and report.exit_status() == 0
    (tmp_path / "docs" / "Operators.md").write_text("stale\n", encoding="utf-8")
    stale = gendoc.check(tmp_path / "docs", options)
    assert not stale.ok and [d.path.name for d in stale.stale] == ["Operators.md"]
    assert "gendoc build --out" in gendoc.format_check(stale)

    snapshot = tmp_path / "old.json"
    snapshot.write_text(gendoc.export(), encoding="utf-8")
    assert json.loads(snapshot.read_text(encoding="utf-8"))["format"] == "gendoc-snapshot"
    changes = gendoc.diff(str(snapshot), "installed")
    assert changes.changes == () and changes.exit_status(gendoc.FailOn.ANY) == 0
    assert gendoc.format_diff(changes, "markdown").startswith("No differences between")
