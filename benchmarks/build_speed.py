"""Time `gendoc build --style onnx` against onnx's own gen_doc.py and the floor.

All three commands run side by side, interleaved, in one process tree, so
that machine noise hits them alike. Prints the median of each and the two
ratios the project targets: gen_doc.py / gendoc >= 15 and gendoc / floor <= 2.

    python benchmarks/build_speed.py [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx

FLOOR = "import onnx.defs; onnx.defs.get_all_schemas_with_history()"


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
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
        commands = {
            "onnx gen_doc.py": [sys.executable, str(script)],
            "gendoc build --style onnx": [
                sys.executable, "-m", "gendoc", "build", "--style", "onnx", "--out", str(base / "g")
            ],
            "floor (import + get_all_schemas_with_history)": [sys.executable, "-c", FLOOR],
        }  # fmt: skip
        for command in commands.values():  # warm-up: file cache, gendoc's snippet cache
            timed(command, base)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(timed(command, base))
        for name in ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md"):
            same = (base / "docs" / name).read_bytes() == (base / "g" / name).read_bytes()
            print(f"{name}: {'identical' if same else 'DIFFERENT'}")
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:")
    for name, value in medians.items():
        print(f"  {name:48s} {value:7.3f} s")
    gen_doc, gendoc, floor = medians.values()
    print(f"speed-up over gen_doc.py: {gen_doc / gendoc:.1f}x (target >= 15x)")
    print(f"gendoc / floor:           {gendoc / floor:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
