"""The export's size and the time of a build from it.

``gendoc export`` writes the whole reference (every schema of every domain with its
examples, details and the evidence verdicts) as one JSON file, which the site publishes
and ``gendoc build --from`` renders. Prints its size, raw and gzip-compressed (level 9, as
a web server sends it), and the medians of ``gendoc build --from FILE`` beside ``gendoc
build`` from the installed onnx (warm cache), run side by side, interleaved, each in its
own process; the documents of both must be identical.

    python benchmarks/export_size.py [--runs 7]
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx

DOCUMENTS = ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md")


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        python = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env = {**python, "GENDOC_CACHE_DIR": str(base / "cache")}
        gendoc = [sys.executable, "-m", "gendoc"]
        export = base / "reference.json"
        timed([*gendoc, "export", "-o", str(export)], env)
        data = export.read_bytes()
        compressed = gzip.compress(data, compresslevel=9, mtime=0)
        commands = {
            "gendoc build --from the export": [
                *gendoc, "build", "--from", str(export), "--out", str(base / "from")
            ],
            "gendoc build (installed onnx, warm cache)": [
                *gendoc, "build", "--out", str(base / "installed")
            ],
        }  # fmt: skip
        for command in commands.values():  # warm-up: file cache, gendoc's caches
            timed(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(timed(command, env))
        same = all(
            (base / "from" / name).read_bytes() == (base / "installed" / name).read_bytes()
            for name in DOCUMENTS
        )
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:")
    print(
        f"  export size: {len(data) / 1e6:.2f} MB, {len(compressed) / 1e3:.0f} KB gzip-compressed"
    )
    for name, value in medians.items():
        print(f"  {name:44s} {value:6.2f} s")
    print(f"documents from the export and from onnx: {'identical' if same else 'DIFFERENT'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
