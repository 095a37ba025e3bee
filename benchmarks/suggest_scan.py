"""Time the C++ scanner of ``gendoc suggest`` on hostile sources of n and 2n bytes.

Each input is one short unit repeated to 40 KB and to 80 KB: unmatched
brackets, closing brackets before a brace (the worst case of a scanner that
walks back to find an opening bracket), builder calls nested in each other,
many small functions. A scanner linear in the file size takes about twice as
long on the doubled file; the ratio is printed next to both times (the best of
``--runs`` runs). The suite checks the same property by counting the
scanner's steps (``tests/suggest/test_suggest.py``); this script shows the seconds.

    python benchmarks/suggest_scan.py [--size 40000] [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import time

from gendoc.errors import UsageError
from gendoc.suggest.checkout import _parse

UNITS = {
    "unmatched (": "(",
    "closers then a brace": ")){",
    "nested calls": '.Input(0, "x", ',
    "functions": "void f(int a) const {}\n",
    "strings and comments": '"a\\"(" R"D((()D" // ((\n',
}


def best_time(text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        with contextlib.suppress(UsageError):
            _parse("hostile.cc", text)
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=40_000, help="bytes of the smaller input")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'input':<22} {args.size // 1000:>4} KB  {2 * args.size // 1000:>4} KB  ratio")
    for name, unit in UNITS.items():
        text = unit * (args.size // len(unit))
        small, large = best_time(text, args.runs), best_time(text * 2, args.runs)
        print(f"{name:<22} {small:6.3f} s {large:6.3f} s  {large / small:4.2f}")


if __name__ == "__main__":
    main()
