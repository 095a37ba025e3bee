"""Time ``gendoc audit`` on the installed onnx: the static lints and the numeric evidence.

Static: ``gendoc audit`` over all domains, as a user runs it (a fresh
process, so interpreter start, onnx import and collection included), plus
the lints alone in this process on an already collected model. Medians over
``--runs``. Numeric: one timed ``gendoc audit --numeric`` run with
``--jobs`` workers, and the coverage it reached: operators with backend test
data, operators evaluated, test cases, and (input, output) pairs per class.

    python benchmarks/audit_numeric.py [--runs 5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import onnx
from shared.timing import timed_output

from gendoc.audit import audit_reference
from gendoc.collect.schemas import collect

ROOT = Path(__file__).resolve().parent.parent


def _timed_cli(*args: str) -> tuple[float, str]:
    command = [sys.executable, "-m", "gendoc", "audit", "--fail-on", "never", *args]
    return timed_output(command, cwd=ROOT)


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s (min {min(values):.3f}, max {max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of the static part")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the numeric run")
    args = parser.parse_args()

    print(f"onnx {onnx.__version__}, python {sys.version.split()[0]}")
    cli = [_timed_cli()[0] for _ in range(args.runs)]
    print(f"static, gendoc audit (whole command): median {_median(cli)}")
    reference = collect(with_examples=False)
    lints = []
    for _ in range(args.runs):
        start = time.perf_counter()
        report = audit_reference(reference)
        lints.append(time.perf_counter() - start)
    print(f"static, lints alone on {report.operator_count} operators: median {_median(lints)}")
    counts = ", ".join(f"{n} {severity.value}" for severity, n in report.counts().items())
    print(f"static findings: {counts}")

    seconds, stdout = _timed_cli("--numeric", "--format", "json", "--jobs", str(args.jobs))
    numeric = json.loads(stdout)["numeric"]
    coverage = numeric["coverage"]
    pairs = ", ".join(f"{n} {kind}" for kind, n in numeric["pairs"].items())
    print(f"numeric, gendoc audit --numeric --jobs {args.jobs}: {seconds:.1f} s (one run)")
    print(
        f"numeric coverage: {coverage['operators_evaluated']} of "
        f"{coverage['operators_with_test_data']} operators with backend test data evaluated, "
        f"{coverage['cases_evaluated']} test cases"
    )
    print(f"numeric pairs: {pairs}")
    for entry in numeric["not_evaluated"]:
        print(f"  not evaluated: {entry['op']}-{entry['version']}: {entry['message']}")


if __name__ == "__main__":
    main()
