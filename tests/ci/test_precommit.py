"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself.

``pre-commit try-repo`` clones this checkout (uncommitted changes included)
the way a project's ``.pre-commit-config.yaml`` would fetch a tagged
release. The hooks install nothing, so this runs offline; they run the
``python`` found first on PATH, which here is the one running the tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.ci.test_action import git_in
from tests.helpers import ROOT, run_gendoc

HOOKS = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}


def try_repo(project: Path, hook: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "PRE_COMMIT_HOME": str(home),
        "PRE_COMMIT_COLOR": "never",
    }
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository that commits a current reference in docs/."""
    repo = tmp_path / "project"
    repo.mkdir()
    git_in(repo, "init", "-q", "-b", "main")
    result = run_gendoc("build", "--out", str(repo / "docs"))
    assert result.returncode == 0, result.stderr
    git_in(repo, "add", "-A")
    git_in(repo, "commit", "-q", "-m", "operator reference")
    return repo


def test_hooks_install_nothing_and_take_no_file_names() -> None:
    assert set(HOOKS) == {"gendoc-check", "gendoc-build"}
    for hook in HOOKS.values():
        assert hook["language"] == "unsupported" and hook["entry"].startswith("python -m gendoc ")
        assert hook["pass_filenames"] is False and hook["always_run"] is True


def test_check_fails_on_a_stale_document_and_passes_after_build(
    project: Path, tmp_path: Path
) -> None:
    home = tmp_path / "pre-commit-home"
    assert try_repo(project, "gendoc-check", home).returncode == 0

    operators = project / "docs" / "Operators.md"
    current = operators.read_text(encoding="utf-8")
    operators.write_text(current + "A line edited by hand.\n", encoding="utf-8")
    stale = try_repo(project, "gendoc-check", home)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert "gendoc check....." in stale.stdout and "Failed" in stale.stdout
    assert "docs/Operators.md is stale:" in stale.stdout
    assert "\n-A line edited by hand.\n" in stale.stdout  # the diff: disk against expected
    assert "gendoc build --out docs" in stale.stdout

    built = try_repo(project, "gendoc-build", home)
    assert built.returncode == 1  # the hook rewrote a file: pre-commit fails so it gets reviewed
    assert "files were modified by this hook" in built.stdout
    assert operators.read_text(encoding="utf-8") == current
    fresh = try_repo(project, "gendoc-check", home)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert "gendoc check....." in fresh.stdout and "Passed" in fresh.stdout
