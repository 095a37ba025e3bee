"""The wheel carries everything: installed from a wheel, gendoc writes what the checkout writes."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = [("gendoc", "en"), ("gendoc", "zh"), ("onnx", "en")]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from the repository, unpacked as pip installs it into an empty target."""
    dist = tmp_path_factory.mktemp("dist")
    target = tmp_path_factory.mktemp("site-packages")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(dist), str(ROOT)], check=True)
    (wheel,) = dist.glob("gendoc-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "gendoc/templates/locale/zh/LC_MESSAGES/gendoc.po" in names
    assert "gendoc/templates/gendoc/Operators.md.j2" in names
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    return target


def _build(out: Path, style: str, lang: str, cwd: Path, pythonpath: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    code = "import gendoc, sys; print(gendoc.__file__, file=sys.stderr)"
    where = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True)
    location = where.stderr.decode().strip()
    assert location.startswith(pythonpath or str(ROOT)), location
    args = ["build", "--out", str(out), "--style", style, "--lang", lang]
    result = subprocess.run(
        [sys.executable, "-m", "gendoc", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("style", "lang"), RUNS)
def test_installed_wheel_writes_the_same_bytes(
    installed: Path, tmp_path: Path, style: str, lang: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _build(tmp_path / "wheel", style, lang, elsewhere, str(installed))
    _build(tmp_path / "checkout", style, lang, ROOT, None)
    names = sorted(p.name for p in (tmp_path / "checkout").iterdir())
    assert names == ["Changelog-ml.md", "Changelog.md", "Operators-ml.md", "Operators.md"]
    for name in names:
        wheel_bytes = (tmp_path / "wheel" / name).read_bytes()
        assert wheel_bytes == (tmp_path / "checkout" / name).read_bytes(), name
