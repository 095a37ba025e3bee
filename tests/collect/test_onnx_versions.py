"""Which onnx gendoc runs on: releases from 1.16, and onnx-weekly's development builds.

onnx is declared as the extra ``gendoc[onnx]``, so nothing but the user (or
CI) decides which distribution provides the module ``onnx``. ``make test``
and CI set ``GENDOC_EXPECT_ONNX`` to the requirement they installed, and
these tests check that this is what the suite really ran on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import distribution, packages_distributions
from pathlib import Path

import onnx
import pytest
from packaging.requirements import Requirement

from gendoc.collect.schemas import MINIMUM_ONNX, onnx_release
from tests.helpers import ROOT


def test_one_distribution_provides_onnx() -> None:
    """Installing gendoc next to onnx-weekly must not add the onnx release on top."""
    providers = packages_distributions()["onnx"]
    assert len(providers) == 1, providers
    assert distribution(providers[0]).version == onnx.__version__


def test_runs_on_the_onnx_that_ci_installed() -> None:
    expected = os.environ.get("GENDOC_EXPECT_ONNX")
    if expected is None:
        pytest.skip("GENDOC_EXPECT_ONNX is not set (make test and CI set it)")
    requirement = Requirement(expected)
    (provider,) = packages_distributions()["onnx"]
    assert provider.lower() == requirement.name.lower()
    assert requirement.specifier.contains(onnx.__version__, prereleases=True)


@pytest.mark.parametrize(
    ("version", "release", "supported"),
    [
        ("1.16.2", (1, 16), True),
        ("1.23.2", (1, 23), True),
        ("1.24.0.dev20261026", (1, 24), True),  # onnx-weekly
        ("1.24.0rc1", (1, 24), True),
        ("1.15.0", (1, 15), False),
        ("1.9.0", (1, 9), False),  # compared as numbers: 9 < 16
        ("unknown", (0, 0), False),
    ],
)
def test_onnx_release(version: str, release: tuple[int, int], supported: bool) -> None:
    assert onnx_release(version) == release
    assert (onnx_release(version) >= MINIMUM_ONNX) is supported


def _gendoc_with(setup: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``gendoc build`` in a child process after SETUP, a line of Python, has run."""
    code = f"import sys\n{setup}\nfrom gendoc.cli import main\nsys.exit(main(sys.argv[1:]))"
    # No cache: SETUP changes onnx in memory only, so onnx's files (the cache's key) stay the same.
    return subprocess.run(
        [sys.executable, "-c", code, "build", "--out", str(tmp_path / "out")],
        cwd=ROOT,
        env={**os.environ, "GENDOC_CACHE_DIR": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("setup", "error"),
    [
        (
            "sys.modules['onnx'] = None  # import onnx now fails",
            "onnx is not installed: pip install 'gendoc[onnx]', or onnx-weekly for onnx's main "
            "branch",
        ),
        (
            "import onnx\nonnx.__version__ = '1.15.0'",
            "onnx 1.15.0 is too old: gendoc needs onnx >= 1.16 (pip install 'gendoc[onnx]')",
        ),
    ],
    ids=["missing", "too-old"],
)
def test_an_unusable_onnx_is_one_line(tmp_path: Path, setup: str, error: str) -> None:
    result = _gendoc_with(setup, tmp_path)
    assert (result.returncode, result.stderr) == (2, f"gendoc: error: {error}\n")
    assert not (tmp_path / "out").exists()
