"""Time the bilingual site against the one-language baseline, and a rebuild against a build.

The baseline is onnx's monolithic Operators.md and Changelog.md (as
``gendoc build --style onnx`` writes them, byte for byte what onnx's
gen_doc.py writes) in a one-language mkdocs project with the Material theme.
The site is this repository's mkdocs.yml: both languages, every operator on
its own page, coverage and audit, strict, searched with Pagefind.

- full build: the site from nothing, an empty cache folder (GENDOC_CACHE_DIR)
  and a fresh output folder, as on a new checkout;
- rebuild: ``mkdocs build`` again with nothing changed, in a new process,
  over the same output and cache folders, as ``make docs`` run twice.

The builds start once the file system has forgotten the files deleted before the benchmark
(:data:`QUIET_SECONDS` after a sync). On ext4 without a journal, as here, a file made
within a minute of others being deleted has its inode searched past each of them, and
within six minutes when their inode table block is dirty again (``RECENTCY_MIN`` and
``RECENTCY_DIRTY`` in ext4's ``ialloc.c``), as the build's own new files make it: 8,000
files deleted just before tripled a full build's system time (0.83 to 2.53 s) and added
0.8 s to its wall time; a run of ``make bench`` that timed the builds 65 s after a sync,
minutes after the scripts before had deleted a virtual environment and their temporary
folders, measured the full build at 1.16x the baseline and 2.13x its processor time
(0.94x to 0.97x, 1.71x to 1.74x, when this script ran apart). The site's build makes some
3,300 files, the baseline's fifty.

Each runs in its own process. The baseline and the full build alternate, so that
machine noise hits them alike; the rebuilds follow, once every full build is done (a
rebuild deletes what it does not write again, the search index of the site it replaces
among them, see main). Prints medians and the ratios the project
targets (full build / baseline <= 1.0 in wall time and <= 1.5 in CPU time, the
user and system time of mkdocs and every process it starts; rebuild / full build
<= 0.5), then the
site's size and the search payload: the bytes a reader's browser downloads
from opening a page to the first results of a query (Pagefind's script,
entry, language metadata, wasm, the index chunks the query needs, the
excerpts of the first results, and the site's lists of operator names, glossary terms,
Chinese words and page kinds), measured in Chromium with Playwright when
/usr/bin/chromium is there.

    python benchmarks/site_build.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import onnx
from shared.browser import CHROMIUM, chromium_page, served
from shared.timing import installed_python, timed_with_cpu

ROOT = Path(__file__).resolve().parent.parent
BASELINE_CONFIG = "site_name: ONNX operators\ntheme:\n  name: material\n"
# A query per language, typed into the site's search as a reader would.
QUERIES = {"en": "conv", "zh": "可微"}
# The site's own files the search fetches besides Pagefind's: operator names, glossary terms.
SEARCH_ASSETS = ("operator-names.json", "search-terms.json")
# What Pagefind's files hold, by their extension.
KINDS = {
    "js": "scripts",
    "json": "entry, names, terms, words and kinds",
    "pagefind": "wasm",
    "pf_meta": "metadata",
    "pf_index": "index chunks",
    "pf_fragment": "excerpts",
    "pf_filter": "filters",
}
QUIET_SECONDS = 370
"""How long ext4 takes account of a deleted inode: 60 s, and 300 s more while its block of
the inode table is dirty (a sync writes it out, a new file beside it dirties it again)."""
SEARCH_TARGET_KB = 300
"""What the search may download from opening a page to the first results."""
TARGETS = {
    "full build / baseline": 1.0,
    "rebuild / full build": 0.5,
    "full build / baseline, CPU": 1.5,
}


def mkdocs_build(config: Path, out: Path, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one build: the CPU of mkdocs and every process it starts
    (Pagefind, the example reader), which the wall time hides while a second core is free.
    Python as installed: with its bytecode cache, which the warm-up build fills. What the
    builds before it wrote is on the disk first (a sync, not timed), so that no build pays
    for writing out the one before: the site's build writes some 130 MB (its pages, and the
    cache a rebuild reads), the baseline's 10."""
    os.sync()
    return timed_with_cpu(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(out)],
        installed_python(GENDOC_CACHE_DIR=str(cache), NO_MKDOCS_2_WARNING="1"),
        cwd=ROOT,
    )


def baseline_project(base: Path) -> Path:
    docs = base / "baseline" / "docs"
    subprocess.run(
        [sys.executable, "-m", "gendoc", "build", "--style", "onnx", "--out", str(docs)],
        check=True,
        capture_output=True,
    )
    for name in ("Operators-ml.md", "Changelog-ml.md"):  # the baseline is the two main files
        (docs / name).unlink()
    config = base / "baseline" / "mkdocs.yml"
    config.write_text(BASELINE_CONFIG, encoding="utf-8")
    return config


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def search_payload(site: Path, lang: str, query: str) -> Counter[str]:
    """Bytes fetched for the search, by file kind, from loading the page to the first results:
    the size of each file requested, as Python's web server sends files whole (the sizes
    Chromium reports for a request came out as 0 for some of them in some runs)."""
    fetched: Counter[str] = Counter()
    with served(site) as root, chromium_page() as page:
        prefix = "" if lang == "en" else f"{lang}/"

        def record(request) -> None:
            path = unquote(urlsplit(request.url).path)
            name = path.rsplit("/", 1)[-1]
            if "/pagefind/" in path or name in SEARCH_ASSETS:
                kind = KINDS.get(name.rsplit(".", 1)[-1], name)
                fetched[kind] += (site / path.lstrip("/")).stat().st_size

        # Listening from before the page loads: what the page fetches for the search as it
        # opens counts too (a listener added after it missed whatever had finished by then).
        page.on("requestfinished", record)
        page.goto(f"{root}/{prefix}index.html")
        page.locator(".gd-search__toggle").click()
        page.locator(".gd-search__input").fill(query)
        page.locator(".gd-search__result > a").first.wait_for()
        page.wait_for_load_state("networkidle")
    return fetched


def report_search(site: Path) -> None:
    if not CHROMIUM.is_file():
        print(f"search payload: not measured, it needs Chromium at {CHROMIUM}")
        return
    for lang, query in QUERIES.items():
        fetched = search_payload(site, lang, query)
        parts = ", ".join(f"{kind} {size / 1e3:.0f} KB" for kind, size in fetched.most_common())
        total = sum(fetched.values()) / 1e3
        print(
            f"search payload, {lang} query {query!r}: {total:.0f} KB"
            f" (target <= {SEARCH_TARGET_KB} KB): {parts}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    site_config = ROOT / "mkdocs.yml"
    times: dict[str, list[float]] = {"baseline": [], "full build": [], "rebuild": []}
    cpu: dict[str, list[float]] = {name: [] for name in times}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        baseline_config = baseline_project(base)
        os.sync()
        time.sleep(QUIET_SECONDS)  # ext4 forgets the files deleted before (see the module doc)
        mkdocs_build(baseline_config, base / "warm-b", base / "warm-c")  # warm-up: file cache
        mkdocs_build(site_config, base / "warm-s", base / "warm-c")
        # Every full build before any rebuild: a rebuild deletes what it does not write again
        # (the search index it replaces: some 900 files), and for a minute or more after
        # files are deleted, ext4 scans past their inodes whenever it makes a file, which
        # would charge the next full build (and not the baseline, which makes some fifty
        # files) with system time that no build on a new checkout pays. Nothing is deleted
        # until every full build is done.
        for n in range(runs):
            for name, out in (("baseline", base / f"b{n}"), ("full build", base / f"s{n}")):
                config = baseline_config if name == "baseline" else site_config
                wall, used = mkdocs_build(config, out, base / f"c{n}")
                times[name].append(wall)
                cpu[name].append(used)
        for n in range(runs):
            wall, used = mkdocs_build(site_config, base / f"s{n}", base / f"c{n}")
            times["rebuild"].append(wall)
            cpu["rebuild"].append(used)
        medians = {name: statistics.median(t) for name, t in times.items()}
        cpu_medians = {name: statistics.median(t) for name, t in cpu.items()}
        print(f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:")
        labels = {
            "baseline": "baseline: Operators.md + Changelog.md, one language",
            "full build": "full build: the bilingual site, empty cache",
            "rebuild": "rebuild: the same again, nothing changed",
        }
        for name, label in labels.items():
            print(f"  {label:52} {medians[name]:6.2f} s wall, {cpu_medians[name]:6.2f} s CPU")
        ratios = {
            "full build / baseline": medians["full build"] / medians["baseline"],
            "rebuild / full build": medians["rebuild"] / medians["full build"],
            "full build / baseline, CPU": cpu_medians["full build"] / cpu_medians["baseline"],
        }
        for name, ratio in ratios.items():
            verdict = "met" if ratio <= TARGETS[name] else "MISSED"
            print(f"{name}: {ratio:.2f} (target <= {TARGETS[name]}: {verdict})")
        site = base / f"s{runs - 1}"
        searched = folder_size(site / "pagefind")
        print(
            f"site: {folder_size(site) / 1e6:.1f} MB, of which search index {searched / 1e6:.1f} MB"
        )
        report_search(site)


if __name__ == "__main__":
    main()
