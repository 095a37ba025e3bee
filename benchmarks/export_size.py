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
import sys
import tempfile
from pathlib import Path

from shared.timing import installed_python, interleaved_medians, medians_heading, timed

DOCUMENTS = ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = installed_python(GENDOC_CACHE_DIR=str(base / "cache"))
        gendoc = [sys.executable, "-m", "gendoc"]
        export = base / "reference.json"
        timed([*gendoc, "export", "-o", str(export)], env)
        data = export.read_bytes()
        compressed = gzip.compress(data, compresslevel=9, mtime=0)
        commands = {
            "gendoc build --from the export": (
                [*gendoc, "build", "--from", str(export), "--out", str(base / "from")],
                env,
            ),
            "gendoc build (installed onnx, warm cache)": (
                [*gendoc, "build", "--out", str(base / "installed")],
                env,
            ),
        }
        medians = interleaved_medians(commands, runs)
        same = all(
            (base / "from" / name).read_bytes() == (base / "installed" / name).read_bytes()
            for name in DOCUMENTS
        )
    print(medians_heading(runs))
    print(
        f"  export size: {len(data) / 1e6:.2f} MB, "
        f"{len(compressed) / 1e3:.0f} KB gzip-compressed (level 9)"
    )
    for name, value in medians.items():
        print(f"  {name:44s} {value:6.2f} s")
    print(f"documents from the export and from onnx: {'identical' if same else 'DIFFERENT'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
