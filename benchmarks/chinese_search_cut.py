"""Chinese search: gendoc's word-cutting against Pagefind's own, scored by plain substring search.

The site cuts its Chinese pages into words itself and the browser cuts a query
by the same rule (gendoc/site/search_words.py). Pagefind's extended build can
cut Chinese on its own instead (its segmenter at indexing, the browser's
``Intl.Segmenter`` for the query). This script builds the site once, indexes
its Chinese pages a second time the way Pagefind would alone (the pages as
written, ``lang="zh"``), and asks both indexes the same queries in Chromium:
each Chinese term of the glossary, and phrases readers type that join terms.

The oracle is independent of any cutting: the operator pages whose indexed
text (the ``data-pagefind-body`` element, ``data-pagefind-ignore`` parts left
out) holds the query as a substring. Printed per index: recall (the share of
those pages found), precision (the share of found pages that hold the query),
and the queries where the two differ most.

    python benchmarks/chinese_search_cut.py
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from shared.browser import chromium_page, served

from gendoc.site.search_index import PAGEFIND_ARGS, ROOT_ARGS, pagefind_command
from gendoc.site.search_words import HAN, glossary_pairs

ROOT = Path(__file__).resolve().parent.parent

# Phrases that join glossary terms, as readers search for them.
PHRASES = (
    "双线性插值",
    "最近邻插值",
    "线性插值",
    "批归一化",
    "层归一化",
    "实例归一化",
    "转置卷积",
    "卷积核",
)
OWN = "pagefind-own"


class IndexedText(HTMLParser):
    """The text Pagefind indexes of a page: inside the marked element, ignored parts left out."""

    VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "source", "col", "area"})

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.body = 0
        self.ignored = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        self.depth += 1
        names = dict(attrs)
        if "data-pagefind-body" in names and not self.body:
            self.body = self.depth
        if "data-pagefind-ignore" in names and not self.ignored:
            self.ignored = self.depth

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.ignored == self.depth:
            self.ignored = 0
        if self.body == self.depth:
            self.body = 0
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.body and not self.ignored:
            self.parts.append(data)


def indexed_text(path: Path) -> str:
    parser = IndexedText()
    parser.feed(path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", "", unescape("".join(parser.parts)))


def build(site: Path, cache: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)],
        cwd=ROOT,
        env={**os.environ, "GENDOC_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"},
        check=True,
        capture_output=True,
    )


def index_alone(site: Path) -> None:
    """Pagefind over the Chinese pages as written: it cuts their Chinese itself."""
    subprocess.run(
        [
            *pagefind_command(),
            *("--site", str(site), "--glob", "zh/**/*.html", "--output-path", str(site / OWN)),
            *ROOT_ARGS,
            *PAGEFIND_ARGS,
        ],
        check=True,
        capture_output=True,
    )


SEARCH = """async ([bundle, lang, queries]) => {
  document.documentElement.setAttribute("lang", lang);
  const pagefind = await import(bundle + "pagefind.js");
  await pagefind.init();
  const found = {};
  for (const query of queries) {
    const answer = await pagefind.search(query);
    const pages = await Promise.all(answer.results.map((r) => r.data()));
    found[query] = pages.map((p) => p.url);
  }
  return found;
}"""


def cut(query: str, words: set[str], longest: int = 8) -> str:
    """The query as assets/search.js cuts it, with the index's vocabulary."""

    def run(match: re.Match[str]) -> str:
        text, out, at = match.group(0), [], 0
        while at < len(text):
            size = min(longest, len(text) - at)
            while size > 1 and text[at : at + size] not in words:
                size -= 1
            out.append(text[at : at + size])
            at += size
        return f" {' '.join(out)} "

    return " ".join(HAN.sub(run, query).split())


def main() -> None:
    queries = sorted({w for _, zh in glossary_pairs() for w in HAN.findall(zh)} | set(PHRASES))
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(site, Path(tmp) / "cache")
        index_alone(site)
        pages = sorted((site / "zh" / "operators").rglob("*.html"))
        texts = {
            "/" + p.relative_to(site).as_posix(): indexed_text(p)
            for p in pages
            if p.name != "index.html"
        }
        oracle = {q: {url for url, text in texts.items() if q in text} for q in queries}
        words = set(json.loads((site / "pagefind" / "words-qzh.json").read_text("utf-8")))
        with served(site) as root, chromium_page() as page:
            page.goto(f"{root}/zh/index.html")
            ours = page.evaluate(SEARCH, ["/pagefind/", "qzh", [cut(q, words) for q in queries]])
            page.goto(f"{root}/zh/index.html")
            alone = page.evaluate(SEARCH, [f"/{OWN}/", "zh", queries])
    # Scored over the operator pages, as the oracle is: the pages of other kinds are left out.
    found = {
        "gendoc's cut": {q: set(ours[cut(q, words)]) & texts.keys() for q in queries},
        "Pagefind's own cut": {q: set(alone[q]) & texts.keys() for q in queries},
    }
    relevant = sum(len(oracle[q]) for q in queries)
    print(
        f"{len(queries)} queries ({len(PHRASES)} phrases joining glossary terms), "
        f"{len(texts)} Chinese operator pages, "
        f"{relevant} (query, page) pairs"
    )
    for name, answers in found.items():
        hits = sum(len(answers[q] & oracle[q]) for q in queries)
        listed = sum(len(answers[q]) for q in queries)
        missed = [q for q in queries if oracle[q] and not answers[q] & oracle[q]]
        print(
            f"  {name:20} recall {hits / relevant:.3f} ({hits}/{relevant}), precision "
            f"{hits / listed if listed else 0:.3f} ({hits}/{listed}); "
            f"queries finding none of their pages: {len(missed)} {' '.join(missed[:8])}"
        )


if __name__ == "__main__":
    main()
