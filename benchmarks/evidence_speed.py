"""Time every evidence source over the newest version of every default-domain operator.

Runs in a fresh interpreter as a user would, so importing torch and
collecting the schemas are included; prints the wall time per source and
in total. The budget is 60 s on 2 cores.

    python benchmarks/evidence_speed.py
"""

from __future__ import annotations

import time

start = time.perf_counter()

from gendoc.collect import collect  # noqa: E402  (timed imports)
from gendoc.evidence.sources import default_sources  # noqa: E402


def main() -> None:
    schemas = [op.latest for op in collect(with_examples=False).operators("")]
    sources = default_sources()
    print(f"setup (imports, collection, sources): {time.perf_counter() - start:.2f} s")
    for source in sources:
        began = time.perf_counter()
        for schema in schemas:
            source.evaluate(schema)
        print(f"{source.name}: {len(schemas)} operators in {time.perf_counter() - began:.2f} s")
    print(f"total wall time: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
