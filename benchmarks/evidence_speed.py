"""Time the evidence: each source alone, then ``gendoc audit`` with every source.

Part 1 times every source of :func:`gendoc.evidence.sources.default_sources`
over the newest version of every default-domain operator, in this process
(imports and collection included). Part 2 runs, in a fresh interpreter as a
user would, ``gendoc audit --evidence --numeric --jobs 2 --format json`` over
every operator version of every domain: PyTorch, onnxruntime's registry and
the finite differences weighed into one verdict per parameter. The budget is
60 s on 2 cores. onnx-ad answers from its record in both parts; ``--onnx-ad-live``
also times running it on the same operators (backend cases collected first), the
cost the record saves.

    python benchmarks/evidence_speed.py [--jobs 2] [--skip-audit] [--onnx-ad-live]
"""

from __future__ import annotations

import time

start = time.perf_counter()

import argparse  # noqa: E402  (timed imports)
import json  # noqa: E402
import sys  # noqa: E402

from shared.timing import timed_output  # noqa: E402

from gendoc.collect.schemas import collect  # noqa: E402
from gendoc.evidence.sources import default_sources, live_onnx_ad_source  # noqa: E402

BUDGET = 60.0


def time_sources() -> None:
    schemas = [op.latest for op in collect(with_examples=False).operators("")]
    sources = default_sources()
    print(f"setup (imports, collection, sources): {time.perf_counter() - start:.2f} s")
    for source in sources:
        began = time.perf_counter()
        for schema in schemas:
            source.evaluate(schema)
        print(f"{source.name}: {len(schemas)} operators in {time.perf_counter() - began:.2f} s")
    print(f"sources total: {time.perf_counter() - start:.2f} s")


def time_onnx_ad_live() -> None:
    """onnx-ad itself run on every operator (the registered source answers from its record)."""
    began = time.perf_counter()
    schemas = [op.latest for op in collect(with_examples=False).operators("")]
    source = live_onnx_ad_source()
    print(f"onnx-ad live: {source.status.text}")
    for schema in schemas:
        source.evaluate(schema)
    elapsed = time.perf_counter() - began
    print(f"onnx-ad live (cases collected, no record): {len(schemas)} operators in {elapsed:.1f} s")


def time_audit(jobs: int) -> None:
    command = [
        *(sys.executable, "-m", "gendoc", "audit", "--evidence", "--numeric"),
        *("--jobs", str(jobs), "--format", "json", "--fail-on", "never"),
    ]
    wall, printed = timed_output(command)
    report = json.loads(printed)
    coverage = report["numeric"]["coverage"]
    print(f"$ {' '.join(command[1:])}")
    print(
        f"audit with every source: {report['scope']['operators']} operators, "
        f"{len(report['findings'])} findings; numeric: "
        f"{coverage['operators_evaluated']} operator versions evaluated"
    )
    verdict = "within" if wall <= BUDGET else "OVER"
    print(f"audit wall time: {wall:.1f} s ({verdict} the {BUDGET:.0f} s budget, {jobs} jobs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the audit")
    parser.add_argument("--skip-audit", action="store_true", help="time the sources only")
    parser.add_argument(
        "--onnx-ad-live", action="store_true", help="also time onnx-ad run without its record"
    )
    args = parser.parse_args()
    time_sources()
    if args.onnx_ad_live:
        time_onnx_ad_live()
    if not args.skip_audit:
        time_audit(args.jobs)


if __name__ == "__main__":
    main()
