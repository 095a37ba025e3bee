"""The site's search index: Pagefind run over the finished HTML, or its last run restored.

Pagefind takes about a second per language, once the language's pages are
written. Its index depends on nothing but the HTML it reads, its own version
and its arguments, so the bundle it writes is kept in the cache folder under
a hash of those, and a build whose HTML is byte for byte the last indexed set
restores the bundle instead of running Pagefind (:mod:`.search_bundle_cache`).
The search panel ranks results by the kind of page, which each bundle carries
(:mod:`.search_kinds`).

Pagefind lists the languages of ``pagefind-entry.json`` in the order of a
hash map, which changes from run to run; they are sorted here, so that the
bundle is the same bytes on every run (and a restored bundle is the one a
run would write).

When a site marks the text of its pages with ``data-pagefind-body``, as the
theme does (templates/site/overrides), Pagefind indexes nothing else: no
page without the marking, nothing of a page outside it. Yet it parses every
element of every page, the theme's navigation and header included. Given
the marked element as the root of each page, it skips the rest and writes
the same index (the same bytes for this repository's site) with 15% less
processor time, the language still read from ``<html lang>``. What it would
take from outside the marked element is lost: ``<title>``, its title for a
page with no ``<h1>`` (every page here has one), and ``data-pagefind-meta``,
``-filter`` or ``-sort`` attributes outside it (the theme writes none). A site with no
marked page is indexed as Pagefind does by default, every page's ``<body>``.

Pagefind reads a copy of the site's pages, not the pages themselves: the marked
element alone in an otherwise empty page (:func:`marked_text`), a third of the page's
bytes; a Chinese page's copy has its words spaced apart and its language renamed (see
:mod:`gendoc.site.search_words`). Every copy leaves out the parts the templates
mark as unsearched (:data:`UNSEARCHED`: older versions, diffs, examples, function
bodies, runtime tables, evidence tables), which Pagefind's exclusions drop anyway;
parsing them was a quarter of its processor time. The index is the same but for
the ids inside those parts, which Pagefind lists among a page's anchors; the
search uses only the headings' (none of which is inside one). A page with no
mark is linked in as it is.

A site can be indexed in parts (:class:`Pages`, one per language folder), each
part into a bundle of its own, which :func:`merge_bundles` then joins into
the site's. Pagefind keeps each language's index in files of its own and
writes the same shared files (scripts, wasm) whatever pages it reads, so the
joined bundle is the bundle one run over the whole site writes, byte for byte
(a test compares them). The parts let the site's build index each language in
the process that built it, while the other process still builds its own:
spacing the Chinese pages and Pagefind's run took three and a half seconds
after both languages were written; each part is kept and restored on its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from gendoc.errors import GendocError
from gendoc.site.search_bundle_cache import MANIFEST, keep, restore
from gendoc.site.search_kinds import KINDS, write_kinds
from gendoc.site.search_words import INDEX_LANGUAGES, VOCABULARY, Segmenter
from gendoc.storage.write import remove_entry

BUNDLE = "pagefind"
ENTRY = "pagefind-entry.json"


# Pagefind indexes what the theme marks with data-pagefind-body (see templates/site/overrides),
# without permalink signs, without the older versions (marked gd-older by the operator and
# evidence pages' templates) and diffs that repeat the newest one, without what every evidence
# page repeats and its scripts' code (gd-unindexed), and
# without code (examples, function bodies), lists of facts and links every page repeats, and
# the evidence tables (a badge per cell would drown the guide in a search for a tag).
PAGEFIND_ARGS = (
    "--exclude-selectors",
    ".headerlink",
    "--exclude-selectors",
    "details.gd-diff, details.gd-example, div.gd-function, ul.gd-facts, ul.gd-compare,"
    " table.gd-evidence",
    "--exclude-selectors",
    "div.gd-older, div.gd-unindexed",
    "--silent",
)

# What the templates mark around the parts of a page Pagefind leaves out (PAGEFIND_ARGS and
# data-pagefind-ignore say which): cut from the copy Pagefind reads, they cost it nothing.
UNSEARCHED = (b"<!--gd-unsearched-->", b"<!--/gd-unsearched-->")

# The marking of the text Pagefind indexes; on a site that has it, the root Pagefind starts from.
BODY_MARK = "data-pagefind-body"
ROOT_ARGS = ("--root-selector", f"[{BODY_MARK}]")

# Pagefind's own search interfaces, written beside its index; the theme draws its own results.
PAGEFIND_UNUSED = (
    "pagefind-ui.*",
    "pagefind-component-ui.*",
    "pagefind-modular-ui.*",
    "pagefind-highlight.js",
)
# A page's language, as the theme writes it at the top of every page.
_HTML_LANG = re.compile(rb'<html lang="([^"]*)"')


@dataclass(frozen=True)
class Pages:
    """The pages of a site one Pagefind run indexes: every HTML page under ``folder`` ("" for
    the whole site), but those under the top-level folders ``skip`` and Pagefind's bundle."""

    name: str
    """Names the part's bundle while it waits to be merged, and its kept bundle."""
    folder: str = ""
    skip: frozenset[str] = frozenset()

    def paths(self, site: Path) -> Iterator[Path]:
        """The part's pages, in a fixed order; a skipped folder is not even listed (another
        process may be writing it)."""
        for top, folders, files in os.walk(site / self.folder):
            if Path(top) == site:
                folders[:] = [f for f in folders if f != BUNDLE and f not in self.skip]
            folders.sort()
            for name in sorted(files):
                if name.endswith(".html"):
                    yield Path(top, name)


def parts_folder(site: Path) -> Path:
    """A new folder beside ``site`` where the parts' bundles wait to be joined: on the site's
    file system, so that joining links the files, and gendoc's own, named like no other
    (the site's parent is made first where missing, as mkdocs would make it for the site)."""
    site.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=site.parent, prefix=f".{site.name}-{BUNDLE}-"))


def scan_site(site: Path, pages: Pages) -> tuple[str, bool]:
    """:func:`html_key` of ``pages``, and whether any of them marks its text for Pagefind."""
    args = (*ROOT_ARGS, *PAGEFIND_ARGS)
    words = Segmenter.key()
    made = f"pagefind {version('pagefind')} {args} {words} {KINDS}"
    digest = hashlib.sha256(f"{made}\n".encode())
    marked = False
    mark = BODY_MARK.encode()
    for path in pages.paths(site):
        data = path.read_bytes()
        marked = marked or mark in data
        digest.update(f"{path.relative_to(site).as_posix()}\0".encode())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:32], marked


def html_key(site: Path, pages: Pages) -> str:
    """A hash of the HTML files of ``pages`` (path and bytes), Pagefind's version and
    arguments."""
    return scan_site(site, pages)[0]


def index_pages(
    site: Path,
    cache: Path | None,
    pages: Pages,
    parts: Path,
    cpus: frozenset[int] | None = None,
) -> Path:
    """The bundle of ``pages``, as ``parts/<name>`` (``parts`` from :func:`parts_folder`):
    restored from ``cache`` when their HTML is unchanged, else indexed (by Pagefind on the
    processors ``cpus``, when given)."""
    kept = cache / "search-index" / pages.name if cache else None
    key, marked = scan_site(site, pages)
    target = parts / pages.name
    if kept is not None:
        try:
            if restore(kept / key, target):
                return target
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):  # missing, or damaged
            pass
        shutil.rmtree(target, ignore_errors=True)  # a damaged bundle is indexed again
    run_pagefind(site, pages, marked, target, cpus)
    if kept is not None:
        keep(target, kept, key)
    return target


def merge_bundles(site: Path, bundles: Sequence[Path]) -> None:
    """Join the parts' ``bundles`` into ``site/pagefind`` (their files moved), and remove them.

    Every part's entry is read before the site's bundle is touched, so a missing part
    leaves the site as it was. The files two parts share must be the same bytes; the entry
    lists every part's languages, sorted, so that it does not depend on how the site was
    split."""
    entries = []
    for bundle in bundles:
        try:
            entry = json.loads((bundle / ENTRY).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise GendocError(f"pagefind: no index of {bundle.name}: {exc}") from None
        if not (isinstance(entry, dict) and isinstance(entry.get("languages"), dict)):
            raise GendocError(f"pagefind: the index of {bundle.name} lists no languages")
        entries.append(entry)
    languages: dict = {}
    for bundle, data in zip(bundles, entries, strict=True):
        languages.update(data["languages"])
        if {**data, "languages": None} != {**entries[0], "languages": None}:
            raise GendocError(f"pagefind: {bundle.name} was written by another Pagefind run")
    target = site / BUNDLE
    try:
        remove_entry(target)  # a link there is removed, not followed
    except OSError as exc:
        raise GendocError(f"pagefind: cannot replace {target}: {exc.strerror or exc}") from None
    for bundle in bundles:
        for path in sorted(bundle.rglob("*")):
            if path.is_dir() or path.name in (ENTRY, MANIFEST):
                continue
            placed = target / path.relative_to(bundle)
            if placed.exists():
                if placed.read_bytes() != path.read_bytes():
                    raise GendocError(f"pagefind: two parts of the site differ in {placed.name}")
                continue
            placed.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, placed)
    if entries:
        (target / ENTRY).write_text(_entry_text(entries[0], languages), encoding="utf-8")
    for bundle in bundles:
        shutil.rmtree(bundle, ignore_errors=True)


def _entry_text(entry: dict, languages: dict) -> str:
    """``pagefind-entry.json`` with ``languages`` sorted (Pagefind lists them in the order of
    a hash map, which changes from run to run)."""
    data = {**entry, "languages": dict(sorted(languages.items()))}  # keeps the key's place
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def run_pagefind(
    site: Path, pages: Pages, marked: bool, bundle: Path, cpus: frozenset[int] | None = None
) -> None:
    """Index ``pages`` of ``site`` into ``bundle``, only their marked text if ``marked``, by
    Pagefind on the processors ``cpus`` (all of this process's when ``None``)."""
    root = ROOT_ARGS if marked else ()
    segmenter = Segmenter()
    source = Path(tempfile.mkdtemp(dir=_scratch(site), prefix=f".{site.name}-search-"))
    try:
        segmented = _search_copy(site, pages, source, segmenter)
        with _started_on(cpus):
            done = subprocess.run(
                [
                    *pagefind_command(),
                    *("--site", str(source), "--output-path", str(bundle)),
                    *root,
                    *PAGEFIND_ARGS,
                ],
                capture_output=True,
                text=True,
                check=False,
            )
    finally:
        shutil.rmtree(source, ignore_errors=True)
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        raise GendocError(f"pagefind failed: {message[-1] if message else '?'}")
    for pattern in PAGEFIND_UNUSED:
        for path in bundle.glob(pattern):
            path.unlink()
    entry = bundle / ENTRY
    data = json.loads(entry.read_text(encoding="utf-8"))
    sorted_entry = entry.with_name(f".{ENTRY}")
    sorted_entry.write_text(_entry_text(data, data["languages"]), "utf-8")
    sorted_entry.replace(entry)
    write_kinds(bundle)
    vocabulary = sorted(word for word in segmenter.words if len(word) > 1)
    for code in segmented:
        text = json.dumps(vocabulary, ensure_ascii=False, separators=(",", ":"))
        (bundle / VOCABULARY.format(code=code)).write_text(text, encoding="utf-8")


@contextlib.contextmanager
def _started_on(cpus: frozenset[int] | None) -> Iterator[None]:
    """This thread on ``cpus`` for the time of the block, so that a command it starts keeps
    them (a child inherits its parent's processors): no other way to give them to one
    started with ``vfork``, as ``subprocess`` starts it, where a ``preexec_fn`` would fork
    the whole process. The thread only waits for the command meanwhile."""
    if not cpus:
        yield
        return
    mine = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, mine)


# A file system in memory, where Linux has one for every user (a tmpfs), and how much of it
# must be free for the copy (a few megabytes a language) to go there.
_MEMORY = Path("/dev/shm")
_MEMORY_FREE = 256 << 20


def _scratch(site: Path) -> Path:
    """Where Pagefind's copy of the pages is written, and deleted once it has read them: in
    memory where the system has a file system there (:data:`_MEMORY`), else beside the site.
    On ext4 without a journal, a file made in the minutes after others were deleted from the
    same disk has its inode searched past each of them: the copies deleted by one build, some
    900 files, made the next builds' files that much slower to make."""
    with contextlib.suppress(OSError):
        free = os.statvfs(_MEMORY)
        if os.access(_MEMORY, os.W_OK | os.X_OK) and free.f_bavail * free.f_frsize > _MEMORY_FREE:
            return _MEMORY
    return site.parent


def _search_copy(site: Path, pages: Pages, source: Path, segmenter: Segmenter) -> set[str]:
    """``pages`` of ``site`` into ``source``, as Pagefind is to read them: only a page's marked
    text kept (:func:`marked_text`), without what is marked unsearched; a page of a language
    in :data:`INDEX_LANGUAGES` with its Chinese words spaced and its language renamed; a page
    that none of this changes, linked. Returns the index languages of the pages so renamed."""
    segmented: set[str] = set()
    for path in pages.paths(site):
        relative = path.relative_to(site)
        target = source / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        found = _HTML_LANG.search(data, 0, 4096)
        lang = found.group(1).decode().split("-")[0].lower() if found else ""
        code = INDEX_LANGUAGES.get(lang)
        text = marked_text(data, code.encode() if code else found.group(1)) if found else None
        if code is None:
            cut = without_unsearched(data if text is None else text)
            if cut is data:
                _share(str(path), str(target))
            else:
                target.write_bytes(cut)
            continue
        segmented.add(code)
        if text is None:
            text = data[: found.start(1)] + code.encode() + data[found.end(1) :]
        text = without_unsearched(text)
        target.write_text(segmenter.spaced(text.decode("utf-8")), encoding="utf-8")
    return segmented


def without_unsearched(html: bytes) -> bytes:
    """``html`` without what the templates mark as left out of the search
    (:data:`UNSEARCHED`), or ``html`` itself where nothing is marked or the marks do not
    pair up (Pagefind's own exclusions then leave the same out)."""
    opening, closing = UNSEARCHED
    kept: list[bytes] = []
    at = depth = 0
    start = html.find(opening)
    if start < 0:
        return html
    place = start
    while True:
        opens, closes = html.find(opening, place), html.find(closing, place)
        if closes < 0 and opens < 0:
            break
        if opens >= 0 and (closes < 0 or opens < closes):
            if depth == 0:
                kept.append(html[at:opens])
            depth += 1
            place = opens + len(opening)
        else:
            depth -= 1
            if depth < 0:
                return html
            place = closes + len(closing)
            if depth == 0:
                at = place
    if depth:
        return html
    kept.append(html[at:])
    return b"".join(kept)


def marked_text(html: bytes, lang: bytes) -> bytes | None:
    """A page as Pagefind reads it when its root is the element marked
    :data:`BODY_MARK`: that element in an otherwise empty page of language ``lang``; or
    ``None`` where the page has not one such element inside its ``<article>`` (the theme's
    place for it), which Pagefind is then given whole.

    Pagefind writes the same index from it (a test compares them) and the rewritten copy
    is 40% smaller: less text to cut into words and to write, and for Pagefind to parse.
    What follows the marked element is cut at the end of the article, outside the root.
    """
    mark = html.find(BODY_MARK.encode())
    if mark < 0 or html.find(BODY_MARK.encode(), mark + 1) >= 0:
        return None
    start = html.rfind(b"<", 0, mark)
    article = html.rfind(b"<article", 0, start)
    end = html.find(b"</article>", start)
    if article < 0 or end < 0 or html.rfind(b"</article>", 0, start) > article:
        return None
    head = b'<!doctype html>\n<html lang="%s"><head><meta charset="utf-8"></head><body>' % lang
    return head + html[start:end] + b"</body></html>\n"


def pagefind_command() -> list[str]:
    """Pagefind's binary, the one ``python -m pagefind`` runs: that of the ``extended`` extra,
    unless ``PAGEFIND_BINARY_PATH`` names another. Run directly, it starts 80 ms sooner than
    through ``python -m pagefind``, whose Python imports asyncio before handing over to it."""
    if "PAGEFIND_BINARY_PATH" not in os.environ:
        with contextlib.suppress(ImportError, OSError):
            from pagefind_bin_extended import get_executable

            return [str(get_executable())]
    return [sys.executable, "-m", "pagefind"]


def _share(source: str, target: str) -> None:
    """``target`` as a hard link to ``source``, or a copy where a link cannot be made."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
