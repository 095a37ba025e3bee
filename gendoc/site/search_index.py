"""The site's search index: Pagefind run over the finished HTML, or its last run restored.

Pagefind takes about a second, as long as the rest of a rebuild. Its index
depends on nothing but the HTML it reads, its own version and its
arguments, so the bundle it writes is kept in the cache folder under a
hash of those, and a build whose HTML is byte for byte the last indexed
set copies the bundle back instead of running Pagefind. Only the newest
bundle is kept: a site has one index, and an old one is never asked for
again once its pages changed.

Pagefind lists the languages of ``pagefind-entry.json`` in the order of a
hash map, which changes from run to run; they are sorted here, so that the
bundle is the same bytes on every run (and a restored bundle is the one a
run would write).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

from gendoc.errors import GendocError

BUNDLE = "pagefind"
ENTRY = "pagefind-entry.json"

# Pagefind indexes what the theme marks with data-pagefind-body (see templates/site/overrides),
# without permalink signs, without the older versions and diffs that repeat the newest one, and
# without code (examples, function bodies), lists of facts and links every page repeats, and
# the evidence tables (a badge per cell would drown the guide in a search for a tag).
PAGEFIND_ARGS = (
    "--exclude-selectors",
    ".headerlink",
    "--exclude-selectors",
    "details.gd-diff, details.gd-example, div.gd-function, ul.gd-facts, ul.gd-compare,"
    " table.gd-evidence",
    "--exclude-selectors",
    "div.gd-version:not(:first-of-type)",
    "--silent",
)

# Pagefind's own search interfaces, written beside its index; the theme draws its own results.
PAGEFIND_UNUSED = (
    "pagefind-ui.*",
    "pagefind-component-ui.*",
    "pagefind-modular-ui.*",
    "pagefind-highlight.js",
)


def html_key(site: Path) -> str:
    """A hash of every HTML file of ``site`` (path and bytes), Pagefind's version and arguments."""
    digest = hashlib.sha256(f"pagefind {version('pagefind')} {PAGEFIND_ARGS}\n".encode())
    for path in sorted(site.rglob("*.html")):
        if BUNDLE in path.relative_to(site).parts[:1]:
            continue
        digest.update(f"{path.relative_to(site).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def index_site(site: Path, cache: Path | None) -> None:
    """Write ``site/pagefind``: restored from ``cache`` when the HTML is unchanged, else run."""
    kept = cache / "search-index" if cache else None
    key = html_key(site)
    target = site / BUNDLE
    if kept is not None and (kept / key).is_dir():
        shutil.rmtree(target, ignore_errors=True)
        try:
            shutil.copytree(kept / key, target)
            return
        except OSError:  # removed meanwhile by another build: index the site after all
            shutil.rmtree(target, ignore_errors=True)
    run_pagefind(site)
    if kept is not None:
        _keep(target, kept, key)


def run_pagefind(site: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(site), *PAGEFIND_ARGS],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        raise GendocError(f"pagefind failed: {message[-1] if message else '?'}")
    bundle = site / BUNDLE
    for pattern in PAGEFIND_UNUSED:
        for path in bundle.glob(pattern):
            path.unlink()
    entry = bundle / ENTRY
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["languages"] = dict(sorted(data["languages"].items()))
    entry.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), "utf-8")


def _keep(bundle: Path, kept: Path, key: str) -> None:
    """Store ``bundle`` as the only kept index; a failure leaves the cache without one."""
    with contextlib.suppress(OSError):
        kept.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=kept, prefix=".tmp-"))
        shutil.copytree(bundle, staging / BUNDLE)
        for old in kept.iterdir():
            if old != staging:
                shutil.rmtree(old, ignore_errors=True)
        (staging / BUNDLE).rename(kept / key)
        staging.rmdir()
