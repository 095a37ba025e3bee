"""Time ``gendoc diff`` on hostile snapshots of n and 2n: one long reworded paragraph, and
thousands of short paragraphs reordered.

Each pair of snapshots holds one operator whose doc differs between them:

- *reworded*: one paragraph of ``--size`` bytes of words drawn (seeded) from
  the docs of the installed onnx, as often as they occur there; in the new
  snapshot every seventh word is replaced by another drawn word;
- *reordered*: ``--paragraphs`` short paragraphs (``p0`` to ``p7999``, about
  7 bytes each with their blank line), shuffled (seeded) in the new snapshot.

The script writes both snapshots, runs ``gendoc diff`` as the command line
does (read, compare, the Markdown report and the annotations), and prints the
best time of ``--runs`` runs for n and for 2n, and their ratio: a diff whose
work grows with its input takes about twice as long on the doubled one. The
same for the CPU time follows, which the machine's other load does not
lengthen. The
``site`` rows time the site's diff of the two versions (as each pair of an
operator's versions is compared for its page), on a reworded paragraph of
``--site-size`` bytes and on the reordered paragraphs. The
suite checks the same property by counting the engine's steps
(``tests/model/test_sequence_diff.py``); this script shows the seconds.

    python benchmarks/diff_bounds.py [--size 30000] [--paragraphs 8000] [--site-size 40000]
        [--runs 9]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import onnx.defs

from gendoc.catalogs.i18n import ENGLISH
from gendoc.commands.diff import diff
from gendoc.model.compare import FailOn
from gendoc.model.reference import Reference, Schema
from gendoc.model.snapshot import dumps
from gendoc.present.diff_report import format_diff
from gendoc.present.display import Display
from gendoc.site import versions_diff

SEED = 30

Times = tuple[float, float]
"""Wall time and CPU time (``time.process_time``: the other load of the machine is not in it)."""
Timer = Callable[[str, str, int], Times]


def _reference(doc: str) -> Reference:
    return Reference("1.0", (Schema(domain="", name="Hostile", since_version=1, doc=doc),))


def _onnx_words() -> list[str]:
    return [w for s in onnx.defs.get_all_schemas_with_history() for w in (s.doc or "").split()]


def reworded(size: int) -> tuple[str, str]:
    """One paragraph of about ``size`` bytes, and the same with every seventh word replaced."""
    rng, vocabulary = random.Random(SEED), _onnx_words()
    words: list[str] = []
    length = 0
    while length < size:
        words.append(rng.choice(vocabulary))
        length += len(words[-1]) + 1
    new = [rng.choice(vocabulary) if n % 7 == 3 else w for n, w in enumerate(words)]
    return " ".join(words), " ".join(new)


def reordered(count: int) -> tuple[str, str]:
    """``count`` short paragraphs, and the same shuffled."""
    paragraphs = [f"p{n}" for n in range(count)]
    shuffled = paragraphs[:]
    random.Random(SEED).shuffle(shuffled)
    return "\n\n".join(paragraphs), "\n\n".join(shuffled)


def _best(call: Callable[[], object], runs: int) -> Times:
    """The best wall time and the best CPU time of ``runs`` calls."""
    wall = cpu = float("inf")
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        call()
        wall = min(wall, time.perf_counter() - began)
        cpu = min(cpu, time.process_time() - began_cpu)
    return wall, cpu


def site_time(old: str, new: str, runs: int) -> Times:
    """The site's diff of two versions whose docs are ``old`` and ``new``, nothing cached."""
    versions = [
        Schema(domain="", name="Hostile", since_version=v, doc=d) for v, d in ((1, old), (2, new))
    ]

    def run() -> None:
        versions_diff.word_diff.cache_clear()
        versions_diff._text_lines.cache_clear()
        versions_diff.diff_versions(*versions, Display(ENGLISH))

    return _best(run, runs)


def best_time(old: str, new: str, runs: int) -> Times:
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp, "old.json"), Path(tmp, "new.json")]
        for path, doc in zip(paths, (old, new), strict=True):
            path.write_text(dumps(_reference(doc)), encoding="utf-8")

        def run() -> None:
            report = diff(str(paths[0]), str(paths[1]))
            format_diff(report, "markdown")
            format_diff(report, "github", FailOn.TAG_CHANGE)

        return _best(run, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=30_000, help="bytes of the reworded paragraph")
    parser.add_argument("--paragraphs", type=int, default=8_000, help="paragraphs reordered")
    parser.add_argument("--site-size", type=int, default=40_000, help="bytes, site's diff")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    inputs: list[tuple[str, Callable[[int], tuple[str, str]], int, str, Timer]] = [
        ("reworded paragraph", reworded, args.size, "KB", best_time),
        ("reordered paragraphs", reordered, args.paragraphs, "paragraphs", best_time),
        ("site reworded", reworded, args.site_size, "KB", site_time),
        ("site reordered", reordered, args.paragraphs, "paragraphs", site_time),
    ]
    print("target: each under 5 s, 2n at most about 2.5 times n")
    for name, make, n, unit, timer in inputs:
        (small, small_cpu), (large, large_cpu) = (
            timer(*make(n), args.runs),
            timer(*make(2 * n), args.runs),
        )
        shown = (f"{n // 1000} KB", f"{2 * n // 1000} KB") if unit == "KB" else (n, 2 * n)
        print(
            f"{name:<21} {shown[0]!s:>6} {small:6.3f} s  {shown[1]!s:>6} {large:6.3f} s  "
            f"ratio {large / small:4.2f} (CPU time {small_cpu:.3f} s, {large_cpu:.3f} s: "
            f"{large_cpu / small_cpu:4.2f})"
        )


if __name__ == "__main__":
    main()
