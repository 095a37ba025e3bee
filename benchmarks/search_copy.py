"""What copying the search index into the site costs, against linking it as before.

A rebuild restores each language's kept Pagefind bundle from the cache and joins them
into ``site/pagefind``. The site's files are copies (a link would let whoever can write
the site write the cache); they were hard links to the kept files. This builds the site
once (``mkdocs build`` into a temporary folder, its own cache), then times that step,
restore and join of both parts, both ways, interleaved in one process, and prints the
medians and how many files the bundle has. In a real build each language's part is
restored by the process that built it, so the two halves run side by side.

    python benchmarks/search_copy.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

from gendoc.site import search_index
from gendoc.site.search_index import BUNDLE, Pages, index_pages, merge_bundles, parts_folder

ROOT = Path(__file__).resolve().parent.parent


def linking() -> types.ModuleType:
    """``shutil`` as the search index saw it when it linked the files."""
    module = types.ModuleType("shutil_linking")
    module.__dict__.update(shutil.__dict__)
    module.copyfile = lambda source, target, **_: search_index._share(str(source), str(target))
    module.move = lambda source, target: search_index._share(str(source), str(target))
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        site, cache = work / "site", work / "cache"
        env = {**os.environ, "GENDOC_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"}
        build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)]
        subprocess.run(build, cwd=ROOT, env=env, check=True)
        os.environ["GENDOC_CACHE_DIR"] = str(cache)
        kept = Path(next(cache.glob("site-*")))
        parts_of = [Pages("en", skip=frozenset({"zh"})), Pages("zh", "zh")]
        files = sum(1 for p in (site / BUNDLE).rglob("*") if p.is_file())

        def step() -> float:
            parts = parts_folder(site)
            start = time.perf_counter()
            merge_bundles(site, [index_pages(site, kept, pages, parts) for pages in parts_of])
            elapsed = time.perf_counter() - start
            parts.rmdir()
            return elapsed

        copying, linked = search_index.shutil, linking()
        times: dict[str, list[float]] = {"linked": [], "copied": []}
        for run in range(runs):
            for way in ("linked", "copied") if run % 2 == 0 else ("copied", "linked"):
                search_index.shutil = linked if way == "linked" else copying
                times[way].append(step())
        search_index.shutil = copying
    link, copy = (statistics.median(times[way]) for way in ("linked", "copied"))
    print(f"search index of the site ({files} files), restored and joined, medians of {runs}:")
    print(f"  linked (before): {link:.2f} s")
    print(f"  copied (now):    {copy:.2f} s  (+{copy - link:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
