"""Does every number of the README's table of benchmarks stand in what its script printed?

``make bench`` saves what the scripts print (``build/bench.log``, each script's output
under a line ``== benchmarks/NAME.py``) and then runs this check: for every row of the
table in README.md's "Benchmarks" section, every number in its first two cells (what is
measured, and the figure) must appear, written the same way, in the output of the
script its third cell names. A figure typed from an older run, rounded otherwise or
kept as history fails the check; so does a row whose script is not in the log. A
script that says it measured nothing (``not measured``, as ``suggest_patch.py`` without
an onnx checkout) leaves its rows unchecked, and the check says so.

    python benchmarks/shared/readme_figures.py build/bench.log [README.md]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
"""A number as written: ``1.23.2``, ``65,536`` and ``0.044`` are one number each."""
SCRIPT = re.compile(r"benchmarks/(\w+\.py)")
HEADER = re.compile(r"^== benchmarks/(\w+\.py)\s*$", re.M)
NOT_MEASURED = "not measured"


@dataclass(frozen=True)
class Row:
    """One row of the table: the script named by its third cell, its first two cells."""

    script: str
    text: str

    def numbers(self) -> list[str]:
        return NUMBER.findall(self.text)


def rows(readme: str) -> Iterator[Row]:
    """The rows of the table of the section "## Benchmarks"."""
    section = readme.partition("\n## Benchmarks\n")[2].partition("\n## ")[0]
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or set(cells[0]) <= {"-", " "} or cells[2] == "script":
            continue
        named = SCRIPT.search(cells[2])
        if named is None:
            raise SystemExit(f"a row of the table names no script in benchmarks/: {line[:80]}")
        yield Row(named[1], " | ".join(cells[:2]))


def outputs(log: str) -> dict[str, str]:
    """What each script printed, by its file name."""
    parts = HEADER.split(log)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def missing(row: Row, printed: str) -> list[str]:
    """The numbers of ``row`` that its script's output does not hold."""
    found = set(NUMBER.findall(printed))
    return [number for number in row.numbers() if number not in found]


def main(log_file: str, readme_file: str = "README.md") -> int:
    printed = outputs(Path(log_file).read_text(encoding="utf-8"))
    failed = 0
    for row in rows(Path(readme_file).read_text(encoding="utf-8")):
        output = printed.get(row.script)
        if output is None:
            print(f"{row.script}: not in {log_file}: {row.text[:60]}...")
            failed += 1
            continue
        if NOT_MEASURED in output and not set(row.numbers()) & set(NUMBER.findall(output)):
            print(f"{row.script}: measured nothing in this run, row not checked: {row.text[:60]}")
            continue
        absent = missing(row, output)
        if absent:
            print(f"{row.script}: not printed: {', '.join(absent)} (in: {row.text[:60]}...)")
            failed += 1
    print(f"README figures: {'every one printed' if not failed else f'{failed} rows differ'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
