"""Time the bilingual site against the one-language baseline a user would otherwise have.

The baseline is onnx's monolithic Operators.md and Changelog.md (as
``gendoc build --style onnx`` writes them, byte for byte what onnx's
gen_doc.py writes) in a one-language mkdocs project with the Material theme.
The site is this repository's mkdocs.yml: both languages, every operator on
its own page, coverage and audit, strict. Both are built side by side,
interleaved, each into a fresh folder, so that machine noise hits them alike.
A third measure is a rebuild in the same process with nothing changed, as
``mkdocs serve`` does on reload. Prints medians and the ratio the project
targets: site / baseline <= 1.0, then the site's size and, per language,
its search index (Pagefind): the files every search fetches first and the
largest index chunk a one-word query adds (the browser tests measure what a
real query fetches).

    python benchmarks/site_build.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import onnx

ROOT = Path(__file__).resolve().parent.parent
BASELINE_CONFIG = "site_name: ONNX operators\ntheme:\n  name: material\n"
# Loads the config again before the second build, as `mkdocs serve` does on reload.
REBUILD = """
import sys, time
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
start = time.perf_counter()
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
print(time.perf_counter() - start)
"""


def mkdocs_build(config: Path, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def rebuild(config: Path, out: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", REBUILD, str(config), str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout.split()[-1])


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


def folder_size(folder: Path, pattern: str = "**/*") -> int:
    return sum(p.stat().st_size for p in folder.glob(pattern) if p.is_file())


def search_report(site: Path) -> None:
    bundle = site / "pagefind"
    size, searched = folder_size(site) / 1e6, folder_size(bundle) / 1e6
    print(f"site: {size:.1f} MB, search bundle {searched:.1f} MB")
    for meta in sorted(bundle.glob("pagefind.*.pf_meta")):
        lang = meta.name.split(".")[1].split("_")[0]
        wasm = bundle / f"wasm.{lang}.pagefind"
        first = [bundle / "pagefind.js", bundle / "pagefind-worker.js", meta]
        first.append(wasm if wasm.exists() else bundle / "wasm.unknown.pagefind")
        chunks = [p.stat().st_size for p in bundle.glob(f"index/{lang}_*.pf_index")]
        fixed = sum(p.stat().st_size for p in first)
        print(
            f"  search {lang}: index {folder_size(bundle, f'*/{lang}_*') / 1e6:.2f} MB"
            f" in {len(chunks)} chunks; fetched first {fixed / 1e3:.0f} KB"
            f" + largest chunk {max(chunks) / 1e3:.0f} KB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    site_config = ROOT / "mkdocs.yml"
    times: dict[str, list[float]] = {"baseline": [], "site": [], "rebuild": []}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        baseline_config = baseline_project(base)
        mkdocs_build(baseline_config, base / "warm-b")  # warm-up: file cache
        mkdocs_build(site_config, base / "warm-s")
        for n in range(runs):
            times["baseline"].append(mkdocs_build(baseline_config, base / f"b{n}"))
            times["site"].append(mkdocs_build(site_config, base / f"s{n}"))
            times["rebuild"].append(rebuild(site_config, base / f"r{n}"))
        search_report(base / f"s{runs - 1}")
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:")
    print(f"  baseline (Operators.md + Changelog.md, one language) {medians['baseline']:7.2f} s")
    print(f"  bilingual site                                      {medians['site']:7.2f} s")
    print(f"  rebuild in the same process, nothing changed        {medians['rebuild']:7.2f} s")
    ratio = medians["site"] / medians["baseline"]
    print(f"site / baseline: {ratio:.2f} (target <= 1.0)")


if __name__ == "__main__":
    main()
