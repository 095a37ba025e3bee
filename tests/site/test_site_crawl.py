"""The whole built site, both languages: every link resolves, every page loads cleanly.

Links are checked in the built HTML files themselves, parsed with the
standard library: every ``href`` and ``src`` that stays on the site must
name a file of the build, and its ``#anchor`` an element id (or ``<a
name>``) of that page. Then every page is opened once in Chromium, one
tab reused for all of them, with requests off the local server refused:
no console error, no uncaught exception, no attempt to reach the network
(the site is meant to work offline).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

import pytest

from tests.catalogs.test_catalog_typography import document_problems, english_like, prose_nodes
from tests.site.test_site_browser import CHROMIUM, LAUNCH_ARGS, TIMEOUT_MS, serve, sync_playwright
from tests.site.test_site_build import SITE_URL, build_site

pytestmark = pytest.mark.browser

LINKING = {"href", "src"}
# The site's links to itself (SITE_URL, where its builds here say it is published) are internal.


class Links(HTMLParser):
    """The ids of one page and the href and src values it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in LINKING:
                self.links.append(value)

    handle_startendtag = handle_starttag


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("crawl") / "out"
    done = build_site(out, tmp_path_factory.mktemp("crawl-cache"))
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def pages(built: Path) -> dict[str, Links]:
    """Every HTML page of the site, parsed, by its path in the site."""
    parsed = {}
    for path in sorted(built.rglob("*.html")):
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        parsed[path.relative_to(built).as_posix()] = parser
    return parsed


def internal_target(page: str, link: str, site_url: str) -> tuple[str, str] | None:
    """The site path and anchor ``link`` on ``page`` leads to; None if it leaves the site."""
    if link.startswith(site_url):
        link = "/" + link[len(site_url) :]
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return None
    if not parts.path:
        return page, unquote(parts.fragment)
    base = PurePosixPath("/") if parts.path.startswith("/") else PurePosixPath(page).parent
    joined = PurePosixPath("/", base, unquote(parts.path)).as_posix()
    resolved = _normalise(joined)
    if parts.path.rsplit("/", 1)[-1] in ("", ".", ".."):  # a folder: its index page
        resolved = f"{resolved}/index.html".lstrip("/")
    return resolved, unquote(parts.fragment)


def _normalise(path: str) -> str:
    """``a/./b/../c`` as ``a/c``, without leaving the site's root."""
    kept: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if kept:
                kept.pop()
        elif part not in ("", "."):
            kept.append(part)
    return "/".join(kept)


def broken_links(built: Path, pages: dict[str, Links], site_url: str) -> Iterator[str]:
    @cache
    def exists(path: str) -> bool:
        return (built / path).is_file()

    for page, parsed in pages.items():
        for link in parsed.links:
            target = internal_target(page, link, site_url)
            if target is None:
                continue
            path, anchor = target
            if not exists(path):
                yield f"{page}: {link} (no file {path})"
            elif anchor and path.endswith(".html") and anchor not in pages[path].ids:
                yield f"{page}: {link} (no id {anchor!r} in {path})"


def test_the_crawl_covers_both_languages(pages: dict[str, Links]) -> None:
    zh = [p for p in pages if p.startswith("zh/")]
    assert len(zh) > 200
    assert len(pages) - len(zh) >= len(zh)


def test_every_internal_link_and_anchor_resolves(built: Path, pages: dict[str, Links]) -> None:
    checked = sum(len(p.links) for p in pages.values())
    assert checked > 10 * len(pages)
    assert list(broken_links(built, pages, SITE_URL)) == []


def test_the_chinese_pages_follow_the_typography_rules(built: Path) -> None:
    """Every Chinese page, the evidence pages too, read as a reader reads it, follows the
    glossary's typography rules: the catalogs' text, the sources' reasons said from the
    catalog, and what the templates write around them."""
    pages = sorted((built / "zh").rglob("*.html"))
    assert len(pages) > 200
    found = [
        f"{page.relative_to(built)}: {line!r}: {problem}"
        for page in pages
        for line, problem in document_problems(page.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_chinese_evidence_pages_say_their_reasons_in_chinese(built: Path) -> None:
    """At most 1% of the prose text nodes of the Chinese evidence pages (outside code, names
    and what is quoted from a source, marked ``lang="en"``) read as English: every reason a
    source gives is a message of the catalog."""
    pages = sorted((built / "zh" / "evidence").rglob("*.html"))
    assert len(pages) > 100
    nodes = [node for page in pages for node in prose_nodes(page.read_text(encoding="utf-8"))]
    english = [node for node in nodes if english_like(node)]
    assert len(nodes) > 10_000
    assert len(english) <= len(nodes) // 100, sorted(set(english))[:20]


def test_every_page_loads_without_errors(built: Path, pages: dict[str, Links]) -> None:
    if not CHROMIUM.is_file():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    problems: list[str] = []
    with serve(built) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        tab = browser.new_context().new_page()
        tab.set_default_timeout(TIMEOUT_MS)
        current = [""]

        def refuse_outside(route) -> None:
            if route.request.url.startswith(base):
                route.continue_()
            else:
                problems.append(f"{current[0]}: request off the site: {route.request.url}")
                route.abort()

        tab.route("**/*", refuse_outside)
        tab.on(
            "console",
            lambda m: m.type == "error" and problems.append(f"{current[0]}: console: {m.text}"),
        )
        tab.on("pageerror", lambda e: problems.append(f"{current[0]}: page error: {e}"))
        for path in pages:
            current[0] = path
            response = tab.goto(base + path, wait_until="load")
            assert response is not None and response.ok, path
        browser.close()
    assert problems == []
