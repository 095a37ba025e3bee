"""The built site in a real browser: headless Chromium driven by Playwright.

The site is built (in a child process, see ``test_site_build``) and served
over HTTP from a thread. Every test fails on a console error or an uncaught
exception in the page. Screenshots go to ``build/screenshots/``. Without
Chromium at /usr/bin/chromium the tests fail: a browser test that silently
skips proves nothing.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.test_site_build import ROOT, build_hostile_site, build_site, hostile_pages

# Playwright is the "browser" extra: without it these tests are skipped, and
# GENDOC_REQUIRE_ALL_TESTS=1 (make test, CI) turns that skip into a failure.
_playwright = pytest.importorskip(
    "playwright.sync_api", reason="needs playwright: pip install 'gendoc[browser]'"
)
PlaywrightTimeout = _playwright.TimeoutError
sync_playwright = _playwright.sync_playwright

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = ROOT / "build" / "screenshots"
RESHAPE = "operators/ai.onnx/Reshape.html"
TAG_LABELS = {
    "en": ("differentiable", "non-differentiable", "undefined"),
    "zh": ("可微", "不可微", "未定义"),
}
DIFFERENTIABLE_GREEN = "rgb(46, 125, 50)"  # .gd-tag-differentiable in site/assets/gendoc.css
TIMEOUT_MS = 60_000  # the search worker indexes the whole site before answering


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on a free local port; yield its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.is_file():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("browser-site") / "out"
    done = build_site(out)
    assert done.returncode == 0, done.stderr
    with serve(out) as url:
        yield url


@pytest.fixture(scope="module")
def hostile_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("browser-hostile")
    done = build_hostile_site(base)
    assert done.returncode == 0, done.stderr
    return base / "out"


@pytest.fixture
def page(browser):  # playwright objects: untyped on purpose, its types are optional
    """A fresh page that records console errors, page errors and dialogs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    tab.problems = []
    tab.dialogs = []
    tab.on(
        "console",
        lambda m: m.type == "error" and tab.problems.append(f"console: {m.text} ({m.location})"),
    )
    tab.on("pageerror", lambda e: tab.problems.append(f"page error: {e}"))

    def on_dialog(dialog) -> None:
        tab.dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    yield tab
    problems = list(tab.problems)
    context.close()
    assert not problems, problems


def url_of(base: str, lang: str, path: str) -> str:
    return base + ("" if lang == "en" else f"{lang}/") + path


def search(page, query: str) -> None:
    """Type ``query`` into the search box until results show.

    Material ignores what is typed before its search worker is ready (a
    small index is ready almost at once, a large one takes seconds), so the
    query is typed again until results appear or the time is up.
    """
    box = page.locator("input.md-search__input")
    box.click()
    first = page.locator(".md-search-result__item").first
    for _ in range(TIMEOUT_MS // 5_000):
        box.fill("")
        box.press_sequentially(query, delay=20)
        try:
            first.wait_for(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"no search result for {query!r}")


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_page_renders_with_the_three_tags(page, site_url: str, lang: str) -> None:
    page.goto(url_of(site_url, lang, "index.html"))
    tags = page.locator("article .gd-tag")
    assert tags.all_inner_texts() == list(TAG_LABELS[lang])
    assert page.locator("nav.md-nav--primary").get_by_role("link").count() >= 6
    shoot(page, f"home-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_operator_page_renders_with_its_tags(page, site_url: str, lang: str) -> None:
    page.goto(url_of(site_url, lang, RESHAPE))
    assert page.locator("article h1").inner_text().rstrip("¶") == "Reshape"
    first = page.locator("article .gd-version").first
    data = first.locator("dt", has=page.locator("code:text-is('data')")).locator(".gd-tag")
    shape = first.locator("dt", has=page.locator("code:text-is('shape')")).locator(".gd-tag")
    assert data.inner_text() == TAG_LABELS[lang][0]
    assert shape.inner_text() == TAG_LABELS[lang][1]
    colour = data.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour == DIFFERENTIABLE_GREEN  # the site's stylesheet is applied
    assert page.locator("article h2").count() == page.locator("nav.md-nav--secondary a").count()
    # Show the newest version's parameters and tags, not only its doc, in the screenshot.
    first.locator(".gd-part").first.evaluate(
        "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 120)"
    )
    page.wait_for_timeout(600)  # the header's title fades to the page's title on scrolling
    shoot(page, f"operator-{lang}")


@pytest.mark.parametrize(("start", "other"), [("en", "zh"), ("zh", "en")])
def test_language_switcher_leads_to_the_same_page(page, site_url: str, start, other) -> None:
    page.goto(url_of(site_url, start, RESHAPE))
    page.locator(".md-header__option .md-select").hover()
    page.locator(f"a.md-select__link[hreflang='{other}']").click()
    page.wait_for_url(url_of(site_url, other, RESHAPE))
    assert page.locator("article h1").inner_text().rstrip("¶") == "Reshape"
    label = page.locator("article .gd-version .gd-tag").first.inner_text()
    assert label == TAG_LABELS[other][0]


@pytest.mark.parametrize(
    ("lang", "query", "expected"),
    [("en", "Reshape", RESHAPE), ("zh", "可微", "zh/")],
)
def test_search_finds_pages_in_each_language(page, site_url: str, lang, query, expected) -> None:
    page.goto(url_of(site_url, lang, "index.html"))
    search(page, query)
    results = page.locator(".md-search-result__item a")
    hrefs = [a.get_attribute("href") or "" for a in results.all()]
    assert any(expected in href for href in hrefs), hrefs
    shoot(page, f"search-{lang}")


def test_hostile_schema_text_stays_text_in_the_browser(page, hostile_root: Path) -> None:
    pages = hostile_pages(hostile_root)
    assert pages
    live = (
        "article script, article iframe, article img:not([src$='coverage.svg']),"
        " [onerror], [onload], [onclick], a[href^='javascript:' i]"
    )
    with serve(hostile_root) as base:
        for path in pages:
            page.goto(base + path.relative_to(hostile_root).as_posix())
            page.wait_for_load_state("load")
            assert page.locator(live).count() == 0, path
        page.goto(base + "operators/com.example.hostile/Hostile.html")
        text = page.locator("article .gd-doc").first.inner_text()
        assert "<script>alert('script in schema text')</script>" in text
        assert "[click me](javascript:alert('markdown link'))" in text
        shoot(page, "hostile")
        # Search results are drawn from the index as HTML: they must stay text too.
        search(page, "hostile")
        assert "alert(" in page.locator(".md-search-result").inner_text()
        assert page.locator(live).count() == 0
    assert page.dialogs == []
