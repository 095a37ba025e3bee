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
import shutil
import sys
import tempfile
from pathlib import Path

import onnx
from shared.timing import installed_python, interleaved_medians, medians_heading

FLOOR = "import onnx.defs; onnx.defs.get_all_schemas_with_history()"


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
        warm = installed_python(GENDOC_CACHE_DIR=str(base / "cache"))
        empty = installed_python(GENDOC_CACHE_DIR="")
        commands = {
            "onnx gen_doc.py": ([sys.executable, str(script)], warm),
            "gendoc --style onnx, warm cache": ([*gendoc, f"{base}/g", "--style", "onnx"], warm),
            "gendoc --style onnx, empty cache": ([*gendoc, f"{base}/e", "--style", "onnx"], empty),
            "gendoc (default style), warm cache": ([*gendoc, str(base / "d")], warm),
            "floor (import + get_all_schemas_with_history)": ([sys.executable, "-c", FLOOR], warm),
        }  # fmt: skip
        medians = interleaved_medians(commands, runs, cwd=base)
        for name in ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md"):
            expected = (base / "docs" / name).read_bytes()
            same = expected == (base / "g" / name).read_bytes() == (base / "e" / name).read_bytes()
            print(f"{name}: {'identical' if same else 'DIFFERENT'}")
    print(medians_heading(runs))
    for name, value in medians.items():
        print(f"  {name:48s} {value:7.3f} s")
    gen_doc, warm, empty, default, floor = medians.values()
    print(f"speed-up over gen_doc.py, warm cache:  {gen_doc / warm:.1f}x (target >= 15x)")
    print(f"speed-up over gen_doc.py, empty cache: {gen_doc / empty:.1f}x (target >= 12x)")
    print(f"default style / floor:                 {default / floor:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
