"""The typed commands, called from Python the way README's "From Python" section shows."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import gendoc

MODULES = (
    "gendoc.commands.build",
    "gendoc.commands.check",
    "gendoc.commands.export",
    "gendoc.commands.diff",
    "gendoc.present.render",
    "gendoc.model.snapshot",
)


def test_exported_names_are_the_functions_even_after_every_module_is_imported() -> None:
    for name in MODULES:
        importlib.import_module(name)  # importing a submodule sets an attribute on the package
    for name in gendoc.__all__:
        assert callable(getattr(gendoc, name)), name
        assert not isinstance(getattr(gendoc, name), type(gendoc)), name


def test_build_check_export_and_diff_from_python(tmp_path: Path) -> None:
    options = gendoc.RenderOptions(lang="zh")
    written = gendoc.build(tmp_path / "docs", options)
    assert sorted(p.name for p in written) == [
        "Changelog-ml.md",
        "Changelog.md",
        "Operators-ml.md",
        "Operators.md",
    ]
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
