"""How much of the newest schema text the shipped catalogs translate, per domain.

The figure behind "the Chinese reference": for every domain, the distinct
paragraphs of the newest version of every operator, counted as translated,
fuzzy (onnx changed the English since) or missing. Run it after
``make catalogs``: ``python benchmarks/translation_coverage.py [LANG]``.
"""

from __future__ import annotations

import sys

from gendoc.collect import collect
from gendoc.model import domain_label
from gendoc.resources import templates_root
from gendoc.schema_catalog import coverage


def main(lang: str = "zh") -> int:
    reference = collect(with_examples=False)
    total = [0, 0, 0]
    print(f"{'domain':<28} {'translated':>10} {'fuzzy':>6} {'missing':>8} {'share':>7}")
    for domain in reference.domains:
        c = coverage(reference, domain, lang, templates_root())
        share = 100 * c.translated / c.total if c.total else 100.0
        row = f"{c.translated:>10} {c.fuzzy:>6} {c.missing:>8} {share:>6.1f}%"
        print(f"{domain_label(domain):<28} {row}")
        total = [total[0] + c.translated, total[1] + c.fuzzy, total[2] + c.missing]
    share = 100 * total[0] / sum(total) if sum(total) else 100.0
    print(f"{'all domains':<28} {total[0]:>10} {total[1]:>6} {total[2]:>8} {share:>6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
