"""The check ``make bench`` ends with: the README's benchmark figures against what the scripts
printed (``benchmarks/shared/readme_figures.py``). Nothing here times anything."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _checker():
    path = ROOT / "benchmarks" / "shared" / "readme_figures.py"
    spec = importlib.util.spec_from_file_location("readme_figures", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


figures = _checker()

README = """# x

## Benchmarks

| what | figure | script |
| --- | --- | --- |
| build (target >= 15x) | 23.7x (0.44 s vs 10.40 s) | `benchmarks/build_speed.py --runs 9` |
| diff (one comment, <= 65,536 characters) | 28,533 characters | `benchmarks/diff_size.py` |
| the patch | 646 parameters | `benchmarks/suggest_patch.py --onnx-src DIR` |

## Installing

| you want | install |
| --- | --- |
| a release | `pip install onnx==1.23.2` |
"""

LOG = """== benchmarks/build_speed.py
  gendoc --style onnx, warm cache  0.440 s
  onnx gen_doc.py                 10.400 s
speed-up over gen_doc.py, warm cache:  23.7x (target >= 15x)
== benchmarks/diff_size.py
markdown: 28,533 characters (one comment holds 65,536)
== benchmarks/suggest_patch.py
no onnx checkout given (--onnx-src or ONNX_SRC): the patch figures are not measured
"""


def test_every_row_of_the_readme_names_a_script_of_benchmarks() -> None:
    rows = list(figures.rows((ROOT / "README.md").read_text(encoding="utf-8")))
    assert len(rows) >= 10
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")}
    assert {row.script for row in rows} <= scripts


def test_only_the_benchmarks_table_is_read_and_numbers_are_whole() -> None:
    rows = list(figures.rows(README))
    assert [row.script for row in rows] == ["build_speed.py", "diff_size.py", "suggest_patch.py"]
    assert rows[1].numbers() == ["65,536", "28,533"]


def test_a_figure_written_otherwise_than_printed_is_missing(tmp_path, capsys) -> None:
    build, diff, _ = figures.rows(README)
    printed = figures.outputs(LOG)
    assert figures.missing(diff, printed["diff_size.py"]) == []
    # 0.440 printed, 0.44 in the README; 10.400 printed, 10.40 in the README
    assert figures.missing(build, printed["build_speed.py"]) == ["0.44", "10.40"]
    (tmp_path / "bench.log").write_text(LOG, encoding="utf-8")
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    assert figures.main(str(tmp_path / "bench.log"), str(tmp_path / "README.md")) == 1
    said = capsys.readouterr().out
    assert "build_speed.py: not printed: 0.44, 10.40" in said
    assert "suggest_patch.py: measured nothing in this run, row not checked" in said
    assert "1 rows differ" in said


def test_figures_as_printed_pass(tmp_path) -> None:
    fixed = README.replace("0.44 s vs 10.40 s", "0.440 s vs 10.400 s")
    (tmp_path / "bench.log").write_text(LOG, encoding="utf-8")
    (tmp_path / "README.md").write_text(fixed, encoding="utf-8")
    assert figures.main(str(tmp_path / "bench.log"), str(tmp_path / "README.md")) == 0
