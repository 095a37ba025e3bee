"""How much of onnx's schema text the shipped catalogs show translated.

The figures behind "the Chinese reference". First, per domain, the distinct
paragraphs of the newest version of every operator, counted as translated,
fuzzy (onnx changed the English since) or missing. Then the same over every
version of every operator, as a reader of the changelog and of the older
versions meets them: the share of distinct paragraphs shown translated, and
the share weighted by how often each paragraph occurs (a boilerplate sentence
that 40 versions repeat counts 40 times). A paragraph counts as shown
translated exactly when the page shows it so (``SchemaText``, fuzzy and empty
entries left out). Run it after ``make catalogs``:
``python benchmarks/translation_coverage.py [LANG]``.
"""

from __future__ import annotations

import sys

from gendoc.catalogs.schema_text import catalog_entries, coverage, schema_text
from gendoc.collect.schemas import collect
from gendoc.model.reference import domain_label
from gendoc.storage.resources import templates_root


def _newest(reference, lang: str) -> None:
    total = [0, 0, 0]
    print("Newest version of every operator")
    print(f"{'domain':<28} {'translated':>10} {'fuzzy':>6} {'missing':>8} {'share':>7}")
    for domain in reference.domains:
        c = coverage(reference, domain, lang, templates_root())
        share = 100 * c.translated / c.total if c.total else 100.0
        row = f"{c.translated:>10} {c.fuzzy:>6} {c.missing:>8} {share:>6.1f}%"
        print(f"{domain_label(domain):<28} {row}")
        total = [total[0] + c.translated, total[1] + c.fuzzy, total[2] + c.missing]
    share = 100 * total[0] / sum(total) if sum(total) else 100.0
    print(f"{'all domains':<28} {total[0]:>10} {total[1]:>6} {total[2]:>8} {share:>6.1f}%")


def _all_versions(reference, lang: str) -> None:
    shown = schema_text(lang)
    print("\nEvery version of every operator (target >= 95% distinct, >= 98% by occurrence)")
    print(f"{'domain':<28} {'distinct':>16} {'share':>7} {'occurrences':>16} {'share':>7}")
    sums = [0, 0, 0, 0]
    for domain in reference.domains:
        schemas = [s for op in reference.operators(domain) for s in op.versions]
        counts = [0, 0, 0, 0]  # distinct translated, distinct, occurrences translated, all
        for paragraph, occurrences in catalog_entries(schemas).items():
            translated = shown.translates(paragraph)
            counts[0] += translated
            counts[1] += 1
            counts[2] += len(occurrences) if translated else 0
            counts[3] += len(occurrences)
        _row(domain_label(domain), counts)
        sums = [a + b for a, b in zip(sums, counts, strict=True)]
    _row("all domains", sums)


def _row(label: str, counts: list[int]) -> None:
    distinct = 100 * counts[0] / counts[1] if counts[1] else 100.0
    weighted = 100 * counts[2] / counts[3] if counts[3] else 100.0
    pair1, pair2 = f"{counts[0]}/{counts[1]}", f"{counts[2]}/{counts[3]}"
    print(f"{label:<28} {pair1:>16} {distinct:>6.1f}% {pair2:>16} {weighted:>6.1f}%")


def main(lang: str = "zh") -> int:
    reference = collect(with_examples=False)
    _newest(reference, lang)
    _all_versions(reference, lang)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
