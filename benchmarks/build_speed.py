"""Time `gendoc build` against onnx's own gen_doc.py and the floor.

Every command runs side by side, interleaved, in one process tree, so that
machine noise hits them alike: gen_doc.py; ``gendoc build --style onnx`` with
a warm cache and with an empty one (``GENDOC_CACHE_DIR=""``: nothing cached,
the snippets and templates are derived again on every run); the default
style; and the floor (importing onnx and reading every schema), each with
Python's bytecode cache on, as installed Python runs. Prints the
medians and the ratios the project targets: gen_doc.py / gendoc >= 15 (warm)
and >= 12 (empty cache), the default style within 3x of the floor.

    python benchmarks/build_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx

FLOOR = "import onnx.defs; onnx.defs.get_all_schemas_with_history()"


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        script = base / "onnx" / "defs" / "gen_doc.py"
        script.parent.mkdir(parents=True)
        shutil.copy(Path(onnx.__file__).parent / "defs" / "gen_doc.py", script)
        (base / "docs").mkdir()
        gendoc = [sys.executable, "-m", "gendoc", "build", "--out"]
        # Python as installed runs with its bytecode cache; a sandbox that turns it off
        # (PYTHONDONTWRITEBYTECODE) would time the compiling of every module instead.
        python = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        warm = {**python, "GENDOC_CACHE_DIR": str(base / "cache")}
        empty = {**python, "GENDOC_CACHE_DIR": ""}
        commands = {
            "onnx gen_doc.py": ([sys.executable, str(script)], warm),
            "gendoc --style onnx, warm cache": ([*gendoc, f"{base}/g", "--style", "onnx"], warm),
            "gendoc --style onnx, empty cache": ([*gendoc, f"{base}/e", "--style", "onnx"], empty),
            "gendoc (default style), warm cache": ([*gendoc, str(base / "d")], warm),
            "floor (import + get_all_schemas_with_history)": ([sys.executable, "-c", FLOOR], warm),
        }  # fmt: skip
        for command, env in commands.values():  # warm-up: file cache, gendoc's snippet cache
            timed(command, base, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, (command, env) in commands.items():
                times[name].append(timed(command, base, env))
        for name in ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md"):
            expected = (base / "docs" / name).read_bytes()
            same = expected == (base / "g" / name).read_bytes() == (base / "e" / name).read_bytes()
            print(f"{name}: {'identical' if same else 'DIFFERENT'}")
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:")
    for name, value in medians.items():
        print(f"  {name:48s} {value:7.3f} s")
    gen_doc, warm, empty, default, floor = medians.values()
    print(f"speed-up over gen_doc.py, warm cache:  {gen_doc / warm:.1f}x (target >= 15x)")
    print(f"speed-up over gen_doc.py, empty cache: {gen_doc / empty:.1f}x (target >= 12x)")
    print(f"default style / floor:                 {default / floor:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
