"""The built site in a real browser: headless Chromium driven by Playwright.

The site is built (in a child process, see ``test_site_build``) and served
over HTTP from a thread. Every test fails on a console error or an uncaught
exception in the page. Without Chromium at /usr/bin/chromium the tests
fail: a browser test that silently skips proves nothing.

Screenshots are taken only when ``GENDOC_SCREENSHOTS=1`` asks for them:
every one goes to ``build/screenshots/``, and those the README shows
(``README_SCREENSHOTS``) replace theirs in ``assets/screenshots/``::

    GENDOC_SCREENSHOTS=1 pytest tests/site/test_site_browser.py
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path

import pytest
from onnx import defs

from tests.site.test_site_build import (
    ROOT,
    build_hostile_site,
    build_site,
    flipped,
    hostile_pages,
)

# Playwright is the "browser" extra: without it these tests are skipped, and
# GENDOC_REQUIRE_ALL_TESTS=1 (make test, CI) turns that skip into a failure.
_playwright = pytest.importorskip(
    "playwright.sync_api", reason="needs playwright: pip install 'gendoc[browser]'"
)
sync_playwright = _playwright.sync_playwright
expect = _playwright.expect

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
README_SCREENSHOTS = ROOT / "assets" / "screenshots"
# The screenshots README.md shows.
IN_README = {
    "operator-en",
    "operator-zh",
    "dft-en",
    "audit-zh-390",
    "operator-en-dark",
    "operator-en-390",
}
RESHAPE = "operators/ai.onnx/Reshape.html"
CONV = "operators/ai.onnx/Conv.html"
SEARCH_BUDGET = 300_000  # bytes fetched from opening the search to its first results
NARROW = {"width": 390, "height": 844}
LAYOUT_PAGES = [
    RESHAPE,
    "operators/ai.onnx/DFT.html",
    "operators/ai.onnx.ml/TreeEnsembleClassifier.html",
    "operators/ai.onnx/index.html",
    "operators/ai.onnx.ml/index.html",
    "coverage.html",
    "audit.html",
]
TAG_LABELS = {
    "en": ("differentiable", "non-differentiable", "undefined"),
    "zh": ("可微", "不可微", "未定义"),
}
DIFFERENTIABLE_GREEN = "rgb(46, 125, 50)"  # .gd-tag-differentiable in site/assets/gendoc.css
TIMEOUT_MS = 30_000


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


def search(page, query: str) -> list[str]:
    """Open the header's search, type ``query``, return the result links in their order."""
    page.locator(".gd-search__toggle").click()
    page.locator(".gd-search__input").fill(query)
    results = page.locator(".gd-search__result > a")
    results.first.wait_for()
    return [a.get_attribute("href") or "" for a in results.all()]


def pages_of(hrefs: list[str]) -> list[str]:
    """The pages of result links, without the section a link goes to."""
    return [href.split("#")[0] for href in hrefs]


def every_result(page) -> list[str]:
    """Press "more" under the results until every one is listed; their links."""
    more = page.locator("button.gd-search__more")
    while more.count():
        shown = page.locator(".gd-search__result").count()
        more.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('.gd-search__result').length > {shown}"
        )
    return [a.get_attribute("href") or "" for a in page.locator(".gd-search__result > a").all()]


def result_count(page) -> int:
    return int("".join(ch for ch in page.locator(".gd-search__count").inner_text() if ch.isdigit()))


def shoot(page, name: str) -> None:
    """A screenshot of the tab, when ``GENDOC_SCREENSHOTS=1`` (see the module doc)."""
    if os.environ.get("GENDOC_SCREENSHOTS") != "1":
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    if name in IN_README:
        shutil.copyfile(SCREENSHOTS / f"{name}.png", README_SCREENSHOTS / f"{name}.png")


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
    # Each version is an entry of the table of contents (its parts are entries under it).
    top = page.locator("nav.md-nav--secondary > ul > li > a")
    assert page.locator("article h2").count() == top.count()
    # Show the newest version's parameters and tags, not only its doc, in the screenshot.
    first.locator("h3").first.evaluate(
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
    [("en", "Reshape", RESHAPE), ("en", "Conv", CONV), ("zh", "可微", "guide.html")],
)
def test_search_finds_pages_in_each_language(page, site_url: str, lang, query, expected) -> None:
    page.goto(url_of(site_url, lang, "index.html"))
    hrefs = pages_of(search(page, query))
    wanted = url_of(site_url, lang, expected)
    # The guide comes after the operator pages that say 可微 (operator pages rank first).
    assert wanted in (hrefs if lang == "en" else pages_of(every_result(page))), hrefs
    if lang == "en":
        assert all(href.startswith(site_url) and "/zh/" not in href for href in hrefs), hrefs
        assert hrefs[0] == wanted, hrefs  # the operator named by the query comes first
    else:
        assert all(href.startswith(site_url + "zh/") for href in hrefs), hrefs
    shoot(page, f"search-{lang}-{len(query)}")


def test_search_downloads_little_before_the_first_results(page, site_url: str) -> None:
    page.goto(url_of(site_url, "en", "index.html"))
    page.wait_for_load_state("networkidle")
    fetched: list[int] = []
    page.on("requestfinished", lambda r: fetched.append(r.sizes()["responseBodySize"]))
    search(page, "Conv")
    assert 0 < sum(fetched) <= SEARCH_BUDGET, fetched


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
        # Search results are drawn from Pagefind's excerpts: they must stay text too.
        search(page, "hostile")
        # the count is drawn first, each excerpt when its fragment has loaded
        page.wait_for_function(
            "() => document.querySelector('.gd-search__results').innerText.includes('alert(')"
        )
        assert page.locator(live).count() == 0
    assert page.dialogs == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_horizontal_scroll_on_a_phone(page, site_url: str, lang: str) -> None:
    page.set_viewport_size(NARROW)
    for path in LAYOUT_PAGES:
        page.goto(url_of(site_url, lang, path))
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (path, overflow)
    shoot(page, f"audit-{lang}-390")


def test_table_of_contents_on_a_phone(page, site_url: str) -> None:
    page.set_viewport_size(NARROW)
    page.goto(url_of(site_url, "en", RESHAPE))
    toc = page.locator("details.gd-toc-mobile")
    toc.locator("summary").click()
    toc.locator("a[href='#v13']").click()
    page.wait_for_url("**#v13")
    page.wait_for_timeout(600)  # the header's title fades to the page's title on scrolling
    shoot(page, "operator-en-390")


def test_dark_mode_follows_the_system_and_toggles(page, site_url: str) -> None:
    def background() -> str:
        return page.evaluate("getComputedStyle(document.body).backgroundColor")

    page.emulate_media(color_scheme="light")
    page.goto(url_of(site_url, "en", RESHAPE))
    light = background()
    page.locator("label.md-header__button[for^='__palette']:visible").click()
    page.wait_for_function(f"getComputedStyle(document.body).backgroundColor !== {light!r}")
    shoot(page, "operator-en-dark")
    dark = background()
    context = page.context.browser.new_context(color_scheme="dark")
    try:
        fresh = context.new_page()
        fresh.goto(url_of(site_url, "zh", RESHAPE))
        assert fresh.evaluate("getComputedStyle(document.body).backgroundColor") == dark
    finally:
        context.close()


@pytest.mark.parametrize(("start", "other"), [("en", "zh"), ("zh", "en")])
def test_language_switch_keeps_the_anchor(page, site_url: str, start, other) -> None:
    page.goto(url_of(site_url, start, RESHAPE) + "#v13")
    page.locator(".md-header__option .md-select").hover()
    page.locator(f"a.md-select__link[hreflang='{other}']").click()
    page.wait_for_url(url_of(site_url, other, RESHAPE) + "#v13")


def test_schema_text_is_rendered_not_shown_as_markup(page, site_url: str) -> None:
    page.goto(url_of(site_url, "en", "operators/ai.onnx/DFT.html"))
    text = page.locator("article").inner_text()
    assert "$" not in text
    assert page.locator("article .gd-version").first.locator("math").count() >= 3
    url = "https://docs.scipy.org/doc/scipy/tutorial/fft.html"
    assert page.locator(f"article a[href='{url}']").first.inner_text() == url
    page.locator("article div.math").first.scroll_into_view_if_needed()
    shoot(page, "dft-en")
    page.goto(url_of(site_url, "zh", "operators/ai.onnx.ml/TreeEnsembleClassifier.html"))
    text = page.locator("article").inner_text()
    assert "<br" not in text and "<i>" not in text
    assert page.locator("article .gd-doc i", has_text="_as_tensor").count() >= 1
    shoot(page, "tree-ensemble-zh")


@pytest.mark.parametrize(("lang", "words"), [("en", "Page not found"), ("zh", "页面不存在")])
def test_each_language_has_its_404_page(page, site_url: str, lang: str, words: str) -> None:
    page.goto(url_of(site_url, lang, "404.html"))
    assert page.locator("html").get_attribute("lang") == lang
    assert words in page.locator("article h1").inner_text()


WIDTHS = {"wide": {"width": 1280, "height": 900}, "phone": NARROW}
LABELS = {
    "en": {"examples": "Examples", "support": "Support level: common", "body": "Function body"},
    "zh": {"examples": "示例", "support": "支持级别：常规", "body": "函数体"},
}


def compared(page, old: int, new: int):
    """The picker's diff once it shows versions ``old`` to ``new``.

    The picker shows a diff as soon as it comes into view or a first version is chosen, and
    replaces it when the part of the pair chosen next arrives: waiting for any diff would
    read the earlier one.
    """
    diff = page.locator(".gd-compare-diff")
    expect(diff.locator(".gd-compare-title")).to_have_text(
        re.compile(rf"(?<!\d){old}(?!\d).*(?<!\d){new}(?!\d)")
    )
    return diff


def no_sideways_scroll(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_examples_function_body_and_facts_are_shown(page, site_url: str, lang, width) -> None:
    """Relu's examples, HardSwish's function body (a function in every onnx gendoc supports),
    its support level and definition in onnx."""
    import onnx

    page.set_viewport_size(WIDTHS[width])
    page.goto(url_of(site_url, lang, "operators/ai.onnx/Relu.html"))
    assert page.locator("h2#examples").inner_text().startswith(LABELS[lang]["examples"])
    example = page.locator("details.gd-example").first
    example.locator("summary").click()
    code = example.locator("pre code")
    code.wait_for(state="visible")
    assert "onnx.helper.make_node" in code.inner_text()
    assert no_sideways_scroll(page) <= 0
    shoot(page, f"examples-{lang}-{width}")

    page.goto(url_of(site_url, lang, "operators/ai.onnx/HardSwish.html"))
    body = page.locator(".gd-function pre code").first
    assert body.is_visible() and "HardSigmoid" in body.inner_text()
    assert page.locator(".gd-function .gd-part").first.inner_text() == LABELS[lang]["body"]
    facts = page.locator("ul.gd-facts").first
    assert LABELS[lang]["support"] in facts.inner_text()
    source = facts.locator("a").get_attribute("href") or ""
    assert source.startswith("https://github.com/onnx/onnx/blob/") and "/onnx/defs/" in source
    assert f"onnx {onnx.__version__}" in page.locator("footer .md-copyright").inner_text()
    if width == "wide":  # the navigation marks the operator's domain
        marked = page.locator("nav.md-nav--primary .md-nav__item--active > a.md-nav__link")
        assert "ai.onnx" in marked.last.inner_text()
    assert no_sideways_scroll(page) <= 0
    body.scroll_into_view_if_needed()
    shoot(page, f"function-{lang}-{width}")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_distant_versions_compared_from_the_domain_index(page, site_url: str, lang, width) -> None:
    """Domain index -> filter -> Reshape's comparison -> the diff of versions two apart, where the
    types onnx appended (read from onnx here) are marked words."""
    schemas = sorted(
        (s for s in defs.get_all_schemas_with_history() if s.name == "Reshape" and not s.domain),
        key=lambda s: s.since_version,
    )
    old, new = schemas[-3], schemas[-1]
    appended = set(new.type_constraints[0].allowed_type_strs) - set(
        old.type_constraints[0].allowed_type_strs
    )
    assert appended
    page.set_viewport_size(WIDTHS[width])
    page.goto(url_of(site_url, lang, "operators/ai.onnx/index.html"))
    page.locator("input.gd-filter").fill("resha")
    rows = page.locator("article table tbody tr:visible")
    assert rows.count() == 1 and rows.first.locator("td").first.inner_text() == "Reshape"
    rows.first.locator("a[href$='#compare']").click()
    page.wait_for_url("**/Reshape.html#compare")
    page.locator(f"ul.gd-compare a[data-gd-pair='{old.since_version} {new.since_version}']").click()
    diff = compared(page, old.since_version, new.since_version)
    marked = diff.locator("ins.gd-w")
    marked.first.wait_for(state="visible")
    assert page.locator("form.gd-compare-picker select[name=old]").input_value() == str(
        old.since_version
    )
    words = " ".join(marked.all_inner_texts())
    assert all(name in words for name in appended), (words, appended)
    assert no_sideways_scroll(page) <= 0
    marked.first.scroll_into_view_if_needed()
    shoot(page, f"compare-{lang}-{width}")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_chinese_audit_page_is_chinese(page, site_url: str, width: int) -> None:
    """Rule titles and finding messages as the shipped catalog translates them, none in English."""
    from gendoc.audit import RULES
    from gendoc.catalogs.i18n import translations

    gettext = translations("zh").gettext
    english = ("error", "warning", "info")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url_of(site_url, "zh", "audit.html"))
    text = page.locator("article").inner_text()
    shown = [rule for rule in RULES.values() if rule.id in text]
    assert len(shown) >= 3
    for rule in shown:
        assert gettext(rule.title) != rule.title, rule.id
        assert rule.title not in text, rule.id
    rows = page.locator("article table.gd-findings tr:has(td)").all()
    assert len(rows) > 10
    for row in rows[:60]:
        severity, *_, message = row.locator("td").all_inner_texts()
        assert severity in {gettext(s) for s in english} and severity not in english
        assert any("\u4e00" <= ch <= "\u9fff" for ch in message), message


# ---------------------------------------------------------------------------- tags, phones, opsets

CONTRAST_JS = """(scope) => {
  // WCAG contrast of every visible text of the page's own elements: the computed text colour
  // over the background composited from the element up to the first opaque ancestor.
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) =>
    [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const v = c.slice(0, 3)
      .map(x => (x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const low = [];
  for (const el of document.querySelectorAll(scope + " *")) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest("svg, math")) continue;
    let shown = true, layers = [];
    for (let e = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.opacity === "0" || style.visibility === "hidden") shown = false;
      const b = parse(style.backgroundColor);
      if (b[3] > 0 && (!layers.length || layers[layers.length - 1][3] < 1)) layers.push(b);
    }
    if (!shown) continue;
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    const fg = over(parse(getComputedStyle(el).color), bg);
    const [a, b] = [lum(fg), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(el.tagName + "." + el.className + ": " + ratio.toFixed(2));
  }
  return low;
}"""
OPSET_18 = ("Reshape-14", "Resize-18", "Split-18")
PARTS_IN_TOC = {"en": ("Inputs", "Outputs"), "zh": ("输入", "输出")}
PHONE_PAGES = [
    "operators/ai.onnx/index.html",
    "operators/index.html",
    "coverage.html",
    "audit.html",
    "evidence/ai.onnx/LayerNormalization.html",
    "opsets/ai.onnx/18.html",
    "opsets/ai.onnx/index.html",
    "operators/ai.onnx/Gelu.html",
]


def wider_tables(page) -> list[str]:
    """Tables (and the page) whose content is wider than their box: they would scroll sideways."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('article table'))
             .filter(t => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right >
                          window.innerWidth + 1)
             .map(t => t.className + ' ' + t.rows[0].textContent.slice(0, 40))"""
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_scrolls_sideways_on_a_phone(page, site_url: str, lang: str) -> None:
    """Every table is a stack of cards at 390 px: the key columns (the evidence verdict, the
    audit finding, coverage's undefined lists, a domain's Differentiability) are in view."""
    page.set_viewport_size(NARROW)
    for path in PHONE_PAGES:
        page.goto(url_of(site_url, lang, path))
        assert page.locator("article table").count() > 0 or path.endswith("Gelu.html"), path
        assert wider_tables(page) == [], path
        assert no_sideways_scroll(page) <= 0, path
    page.goto(url_of(site_url, lang, "evidence/ai.onnx/LayerNormalization.html"))
    verdict = page.locator("table.gd-evidence td.gd-verdict").first
    box = verdict.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
    shoot(page, f"evidence-{lang}-390")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_badges_link_to_their_evidence_row_with_the_reasons_shown(page, site_url, lang) -> None:
    """LayerNormalization: each badge leads to its row of the evidence page; the evidence's
    suggestion is beside the badge and each source's reason is text, not a tooltip."""
    page.goto(url_of(site_url, lang, "operators/ai.onnx/LayerNormalization.html"))
    version = page.locator("article .gd-version").first
    links = version.locator("a.gd-tag-link")
    assert links.count() >= 4
    suggestions = version.locator(".gd-suggest")
    if suggestions.count():
        assert suggestions.first.is_visible()
    links.first.click()
    page.wait_for_url("**/evidence/ai.onnx/LayerNormalization.html#v*-input-*")
    row_id = page.url.split("#")[1]
    row = page.locator(f"tr[id='{row_id}']")
    assert row.is_visible()
    reasons = row.locator(".gd-why")
    assert reasons.count() >= 1 and all(r.is_visible() for r in reasons.all())
    assert page.locator("article table [title]").count() == 0  # nothing hover-only
    assert page.locator("article dl.gd-terms dt").count() >= 2  # "refused" and verdicts explained
    shoot(page, f"evidence-row-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_inputs_and_outputs_are_in_the_table_of_contents(page, site_url: str, lang: str) -> None:
    page.goto(url_of(site_url, lang, RESHAPE))
    toc = page.locator("nav.md-nav--secondary").first.inner_text()
    for label in PARTS_IN_TOC[lang]:
        assert label in toc, (label, toc[:300])
    newest = page.locator("article h2").first.get_attribute("id")
    assert page.locator(f"nav.md-nav--secondary a[href='#{newest}-inputs']").count() == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_opset_18_page_lists_its_operator_versions(page, site_url: str, lang: str) -> None:
    """Reshape-14, Resize-18 and Split-18 are the versions onnx's own opset 18 holds (read
    from onnx here); the page is reached from the domain's opset index."""
    from onnx import defs as onnx_defs

    for text in OPSET_18:
        name, version = text.split("-")
        assert onnx_defs.get_schema(name, 18, "").since_version == int(version)
    page.goto(url_of(site_url, lang, "opsets/ai.onnx/index.html"))
    page.locator("article a[href='18.html']").first.click()
    page.wait_for_url("**/opsets/ai.onnx/18.html")
    listed = page.locator("article ul.gd-opset-list").last.inner_text().split()
    for text in OPSET_18:
        assert text in listed, text
    assert [t for t in listed if t.startswith("Reshape-")] == ["Reshape-14"]  # one per operator
    assert page.locator("article h2#changes").count() == 1
    shoot(page, f"opset-18-{lang}")
    page.goto(url_of(site_url, lang, RESHAPE))
    applies = page.locator("article p.gd-in-opsets a[href$='opsets/ai.onnx/14.html']")
    assert applies.count() >= 1


def test_the_chart_follows_the_dark_scheme_and_stays_readable_on_a_phone(browser, site_url):
    context = browser.new_context(viewport=NARROW, color_scheme="dark")
    try:
        tab = context.new_page()
        tab.goto(url_of(site_url, "en", "coverage.html"))
        chart = tab.locator("article .gd-chart svg")
        chart.scroll_into_view_if_needed()
        fill = chart.locator("text").first.evaluate("e => getComputedStyle(e).fill")
        ground = tab.evaluate("getComputedStyle(document.body).backgroundColor")
        assert fill != "rgb(0, 0, 0)" and ground != "rgb(255, 255, 255)", (fill, ground)
        sizes = chart.locator("text").evaluate_all(
            "ts => ts.map(t => t.getBoundingClientRect().height)"
        )
        assert min(sizes) >= 11, min(sizes)  # effective text height, not scaled down
        assert no_sideways_scroll(tab) <= 0
        shoot(tab, "chart-dark-390")
    finally:
        context.close()


def test_gelu_formula_scrolls_in_its_own_box_on_a_phone(page, site_url: str) -> None:
    page.set_viewport_size(NARROW)
    page.goto(url_of(site_url, "en", "operators/ai.onnx/Gelu.html"))
    names = (
        page.locator("article .gd-version")
        .first.locator("math mi")
        .evaluate_all("es => es.map(e => e.textContent)")
    )
    assert "erf" in names and "sqrt" in names  # one upright identifier each
    assert no_sideways_scroll(page) <= 0
    page.locator("article math").first.scroll_into_view_if_needed()
    shoot(page, "gelu-390")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_at_least_4_5_to_1(browser, site_url: str, scheme: str) -> None:
    """Badges, diff highlights (Reshape's diffs, the marked words open), severities, the
    evidence table, the chart page and an opset page, at both widths."""
    for viewport in (WIDTHS["wide"], NARROW):
        context = browser.new_context(viewport=viewport, color_scheme=scheme)
        try:
            tab = context.new_page()
            for path in [RESHAPE, "audit.html", "evidence/ai.onnx/Clip.html", *PHONE_PAGES[:3]]:
                tab.goto(url_of(site_url, "en", path))
                tab.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                assert tab.locator("article .gd-tag").count() > 0 or path != RESHAPE
                low = tab.evaluate(CONTRAST_JS, "body")
                assert low == [], (path, viewport, low[:10])
        finally:
            context.close()


def test_the_tag_filter_keeps_the_operators_with_the_chosen_tag(page, site_url: str) -> None:
    page.goto(url_of(site_url, "en", "operators/ai.onnx/index.html"))
    rows = page.locator("article table tbody tr")
    total = rows.count()
    page.locator("select.gd-tag-filter").select_option("undefined")
    shown = page.locator("article table tbody tr:visible")
    assert 0 < shown.count() < total
    assert all(r.locator(".gd-n-undefined").count() >= 1 for r in shown.all()[:40])
    page.locator("select.gd-tag-filter").select_option("")
    assert page.locator("article table tbody tr:visible").count() == total


def operator_versions_in(version: int) -> set[str]:
    """``Name-N`` of every operator version in effect in ai.onnx's opset ``version``, read
    from onnx's schemas (a version onnx deprecated is in no opset)."""
    found = set()
    for schema in defs.get_all_schemas_with_history():
        if schema.domain not in ("", "ai.onnx"):
            continue
        current = (
            defs.get_schema(schema.name, version, schema.domain)
            if (schema.since_version <= version)
            else None
        )
        if current is not None and not current.deprecated:
            found.add(f"{current.name}-{current.since_version}")
    return found


def matrix_fits(page, width: int) -> bool:
    """Whether the page and its matrix are no wider than the window (no sideways scroll)."""
    page_width, table, shown = page.evaluate(
        "(() => { const t = document.querySelector('article table');"
        " return [document.documentElement.scrollWidth, t.scrollWidth, t.clientWidth]; })()"
    )
    return page_width <= width and table <= shown


def matrix_rows(page) -> set[str]:
    return set(page.locator("article table tbody tr:visible td:first-child a").all_inner_texts())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_matrix_shows_the_operator_set_chosen(browser, page, site_url: str, lang) -> None:
    """The matrix page shows the newest set's operator versions (without the script too), the
    versions of the set its select picks, and the set an opset page's link names."""
    matrix = url_of(site_url, lang, "opsets/ai.onnx/runtimes.html")
    newest = defs.onnx_opset_version()
    plain = browser.new_context(java_script_enabled=False)
    static = plain.new_page()
    static.goto(matrix)
    assert static.locator("select.gd-opset-filter").is_hidden()
    assert matrix_rows(static) == operator_versions_in(newest)
    plain.close()
    page.goto(matrix)
    assert matrix_rows(page) == operator_versions_in(newest)
    # a column per onnxruntime provider, and no sideways scrolling on a desktop or a phone
    heads = page.locator("article table thead th").all_inner_texts()
    assert {"CUDA", "DirectML"} <= set(heads)
    assert matrix_fits(page, 1280)
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    small = phone.new_page()
    small.goto(matrix)
    assert matrix_fits(small, 390)
    phone.close()
    page.locator("select.gd-opset-filter").select_option("13")
    assert matrix_rows(page) == operator_versions_in(13)
    assert page.locator(".gd-opset-shown").inner_text() == "13"
    assert page.url.endswith("#opset-13")
    shoot(page, f"matrix-{lang}-13")
    page.goto(url_of(site_url, lang, "opsets/ai.onnx/9.html"))
    page.locator("p.gd-opset-runs a").click()
    page.wait_for_url("**/runtimes.html#opset-9")
    assert page.locator("select.gd-opset-filter").input_value() == "9"
    assert matrix_rows(page) == operator_versions_in(9)


# Search in both languages, and light operator pages with their diffs fetched when chosen.

CONV_TRANSPOSE = "operators/ai.onnx/ConvTranspose.html"
# Standalone 可微 (differentiable), not the end of 不可微 (non-differentiable).
DIFFERENTIABLE_ZH = re.compile(r"(?<!不)可微")


def article_text(page, url: str) -> str:
    """The text of a page's article, fetched (not opened) by the browser."""
    html = page.request.get(url).text()
    article = re.search(r"<article\b.*?</article>", html, re.S)
    assert article, url
    return unescape(re.sub(r"<[^>]+>", " ", article.group(0)))


@pytest.mark.parametrize(
    ("query", "expected"),
    [("卷积", CONV), ("卷积核", CONV), ("转置卷积", CONV_TRANSPOSE)],
)
def test_chinese_words_find_their_operators(page, site_url: str, query, expected) -> None:
    """卷积 (convolution), 卷积核 (kernel), 转置卷积 (transposed convolution): whole words."""
    page.goto(url_of(site_url, "zh", "index.html"))
    hrefs = pages_of(search(page, query))
    assert url_of(site_url, "zh", expected) in hrefs[:5], hrefs
    shoot(page, f"search-zh-{query}")


def test_differentiable_in_chinese_is_not_found_inside_non_differentiable(
    page, site_url: str
) -> None:
    """可微 lists no page whose only 可微 is the end of 不可微 (StringConcat's inputs and
    outputs are all 不可微: its page is one such), and every page it lists says 可微."""
    page.goto(url_of(site_url, "zh", "index.html"))
    search(page, "可微")
    hrefs = sorted(set(pages_of(every_result(page))))
    assert len(hrefs) > 10
    only_negated = url_of(site_url, "zh", "operators/ai.onnx/StringConcat.html")
    text = article_text(page, only_negated)
    assert "不可微" in text and not DIFFERENTIABLE_ZH.search(text)
    assert only_negated not in hrefs
    for href in hrefs:
        assert DIFFERENTIABLE_ZH.search(article_text(page, href)), href


def test_glossary_terms_search_the_other_language(page, site_url: str) -> None:
    """卷积 on the English pages finds Conv through the glossary's "convolution"."""
    page.goto(url_of(site_url, "en", "index.html"))
    hrefs = pages_of(search(page, "卷积"))
    assert url_of(site_url, "en", CONV) in hrefs, hrefs
    assert "convolution" in page.locator(".gd-search__also").inner_text()


def test_enter_opens_the_first_result(page, site_url: str) -> None:
    page.goto(url_of(site_url, "en", "index.html"))
    first = search(page, "Reshape")[0]
    page.locator(".gd-search__input").press("Enter")
    page.wait_for_url(first)
    assert page.locator("article h1").inner_text().rstrip("¶") == "Reshape"


def test_results_link_to_the_section_that_matched(page, site_url: str) -> None:
    """ "cubic" is in Resize's newest version only among its indexed text, in the description of
    its attribute ``mode``: its result goes to that version's Attributes heading (the id the
    page gives it, v<since_version>-attributes), which is on screen."""
    newest = max(
        s.since_version
        for s in defs.get_all_schemas_with_history()
        if s.name == "Resize" and not s.domain
    )
    page.goto(url_of(site_url, "en", "index.html"))
    hrefs = search(page, "cubic")
    target = url_of(site_url, "en", "operators/ai.onnx/Resize.html") + f"#v{newest}-attributes"
    assert target in hrefs, hrefs
    page.locator(f".gd-search__result > a[href='{target}']").click()
    page.wait_for_url(target)
    heading = page.locator(f"#v{newest}-attributes")
    assert heading.is_visible() and heading.bounding_box()["y"] < 900


def test_more_than_ten_results_are_reachable(page, site_url: str) -> None:
    """ "broadcast" matches more pages than the ten shown first; "more" lists every one, Add
    among them, as many as the count says."""
    page.goto(url_of(site_url, "en", "index.html"))
    search(page, "broadcast")
    count = result_count(page)
    assert count > 10 and page.locator(".gd-search__result").count() == 10
    hrefs = pages_of(every_result(page))
    assert len(set(hrefs)) == len(hrefs) == count
    assert url_of(site_url, "en", "operators/ai.onnx/Add.html") in hrefs


def test_nothing_found_offers_the_other_language(page, site_url: str) -> None:
    """自动生成 (generated automatically) is on no English page and in no glossary entry
    (滤波器 is: it searches for "filter" there): the search offers the Chinese pages, whose
    search opens with the same query and finds ConvTranspose (its text says 自动生成)."""
    page.goto(url_of(site_url, "en", "index.html"))
    page.locator(".gd-search__toggle").click()
    page.locator(".gd-search__input").fill("自动生成")
    other = page.locator(".gd-search__none a.gd-search__other")
    other.wait_for()
    assert "中文" in other.inner_text()
    other.click()
    page.wait_for_url("**/zh/index.html?q=*")
    assert page.locator(".gd-search__input").input_value() == "自动生成"
    links = page.locator(".gd-search__result > a")
    links.first.wait_for()
    hrefs = pages_of([a.get_attribute("href") or "" for a in links.all()])
    assert url_of(site_url, "zh", CONV_TRANSPOSE) in hrefs, hrefs


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [1280, 390])
def test_cast_is_light_and_a_chosen_diff_shows_in_two_steps(
    page, site_url: str, lang, width
) -> None:
    """Cast's page is at most 150 KB of HTML; choosing two versions (two interactions) shows
    their diff, fetched then: for versions 6 and 19, the tags onnx changed between them."""
    url = url_of(site_url, lang, "operators/ai.onnx/Cast.html")
    assert len(page.request.get(url).body()) <= 150_000
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url + "#compare")
    page.locator("form.gd-compare-picker select[name=old]").select_option("6")
    page.locator("form.gd-compare-picker select[name=new]").select_option("19")
    diff = compared(page, 6, 19)
    diff.locator("pre.gd-diff-lines").wait_for(state="visible")
    cast = {s.since_version: s for s in defs.get_all_schemas_with_history() if s.name == "Cast"}
    assert flipped(cast[6], cast[19]) == (diff.locator(".gd-tag-changes").count() == 1)
    assert no_sideways_scroll(page) <= 0
    shoot(page, f"compare-cast-{lang}-{width}")


COPIED = {"en": ("Copy as Markdown", "Copied"), "zh": ("复制为 Markdown", "已复制")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_copy_as_markdown_puts_the_page_markdown_on_the_clipboard(
    browser, site_url: str, lang: str
) -> None:
    """The button fetches the Markdown beside the page and copies it, then says so."""
    import urllib.request

    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        tab.goto(url_of(site_url, lang, RESHAPE))
        button = tab.locator("article button.gd-copy-md")
        label, done = COPIED[lang]
        expect(button).to_have_text(label)
        expect(button).to_be_visible()
        button.click()
        expect(button).to_have_text(done)
        copied = tab.evaluate("navigator.clipboard.readText()")
        markdown = url_of(site_url, lang, RESHAPE.removesuffix(".html") + ".md")
        with urllib.request.urlopen(markdown) as response:
            served = response.read().decode("utf-8")
        assert copied == served and copied.startswith("# Reshape\n")
        shoot(tab, f"copy-markdown-{lang}")
        expect(button).to_have_text(label)  # the label comes back
    finally:
        context.close()
    assert not problems, problems


# --- Signatures, comparisons, ranked search, evidence answers, 404, print ----------------------

RESIZE = "operators/ai.onnx/Resize.html"
PAD = "operators/ai.onnx/Pad.html"
SIGNS = {"Differentiable": "✓", "NonDifferentiable": "✗", "Unknown": "?"}
BOTH = [(lang, width) for lang in ("en", "zh") for width in (1280, 390)]


def newest_schema(name: str):
    return max(
        (s for s in defs.get_all_schemas_with_history() if s.name == name and not s.domain),
        key=lambda s: s.since_version,
    )


def at_width(page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_a_signature_leads_to_each_parameter_and_the_evidence_back(page, site_url, lang, width):
    """Resize's newest version opens with its signature, written here from onnx's own schema
    (each input and output with the sign of its differentiation category); a name leads to its
    entry (#v19-input-roi), on screen; the evidence page's answer links to the same entry."""
    schema = newest_schema("Resize")
    v = schema.since_version

    def listed(params) -> str:
        return ", ".join(f"{p.name} {SIGNS[p.differentiation_category.name]}" for p in params)

    expected = f"Resize({listed(schema.inputs)}) → {listed(schema.outputs)}"
    at_width(page, width)
    page.goto(url_of(site_url, lang, RESIZE))
    signature = page.locator(f"#v{v} ~ p.gd-signature").first
    shown = signature.evaluate(
        "p => { const c = p.cloneNode(true); c.querySelectorAll('.gd-sr').forEach(e => e.remove());"
        " return c.textContent; }"
    )
    assert shown == expected
    read = signature.locator(".gd-sr").all_inner_texts()  # each sign's tag, for a screen reader
    assert len(read) == len(schema.inputs) + len(schema.outputs) and all(t.strip() for t in read)
    assert no_sideways_scroll(page) <= 0
    signature.get_by_role("link", name="roi", exact=True).click()
    page.wait_for_url(f"**/{RESIZE}#v{v}-input-roi")
    entry = page.locator(f"#v{v}-input-roi")
    box = entry.bounding_box()
    assert entry.is_visible() and 0 <= box["y"] < page.viewport_size["height"]
    shoot(page, f"signature-{lang}-{width}")
    evidence = url_of(site_url, lang, "evidence/ai.onnx/Resize.html")
    page.goto(evidence)
    answer = page.locator(f".gd-answers a[href$='{RESIZE}#v{v}-input-roi']").first
    answer.click()
    page.wait_for_url(f"**/{RESIZE}#v{v}-input-roi")


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_a_comparison_is_named_in_the_address_and_is_a_page_of_its_own(page, site_url, lang, width):
    """Pad.html#compare-13-18 opens with versions 13 and 18 compared; choosing another pair
    names it in the address; the pair's own page (the comparisons into version 18, at the
    pair's section) is styled, in the page's language, with the site's header and a link
    back, and nothing scrolls sideways."""
    at_width(page, width)
    page.goto(url_of(site_url, lang, PAD) + "#compare-13-18")
    compared(page, 13, 18).locator("pre.gd-diff-lines").wait_for()
    page.locator("form.gd-compare-picker select[name=old]").select_option("11")
    compared(page, 11, 18)
    assert page.url.endswith("#compare-11-18")
    own = page.locator("ul.gd-compare a[data-gd-pair='13 18']").get_attribute("href")
    assert own == "Pad.changes-18.htm#diff-13-18"
    page.goto(url_of(site_url, lang, "operators/ai.onnx/" + own))
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("header.md-header").is_visible()
    assert "18" in page.title() and "Pad" in page.title()
    section = page.locator("section#diff-13-18")
    expect(section.locator("pre.gd-diff-lines")).to_be_in_viewport()
    older = sorted(
        s.since_version
        for s in defs.get_all_schemas_with_history()
        if s.name == "Pad" and not s.domain and s.since_version < 18
    )
    sections = page.locator("section[id^=diff-]")
    assert [sections.nth(n).get_attribute("id") for n in range(sections.count())] == [
        f"diff-{v}-18" for v in older
    ]
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    assert no_sideways_scroll(page) <= 0
    shoot(page, f"comparison-page-{lang}-{width}")
    section.locator("h2 a").click()
    page.wait_for_url(f"**/{PAD}#compare-13-18")
    compared(page, 13, 18)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_opset_page_says_what_changed_and_links_the_comparison(page, site_url, lang):
    """Opset 18 replaced Pad-13 with Pad-18, which added the input ``axes`` (onnx's schemas
    say so); its row says it and links the comparison of the two, which opens, loaded."""
    pads = {
        s.since_version: s
        for s in defs.get_all_schemas_with_history()
        if s.name == "Pad" and not s.domain
    }
    added = [i.name for i in pads[18].inputs if i.name not in {p.name for p in pads[13].inputs}]
    assert added == ["axes"]
    page.goto(url_of(site_url, lang, "opsets/ai.onnx/18.html"))
    row = page.locator("table.gd-opset-changes tr", has=page.locator("a", has_text="Pad-18"))
    assert "axes" in row.locator(".gd-opset-summary").inner_text()
    row.locator(f"a[href$='{PAD}#diff-13-18']").click()
    page.wait_for_url(f"**/{PAD}#diff-13-18")
    expect(page.locator("#diff-13-18 pre.gd-diff-lines")).to_be_visible()


@pytest.mark.parametrize(
    ("lang", "query", "expected"),
    [
        ("zh", "双线性插值", ["Resize", "RoiAlign", "GridSample"]),
        ("en", "插值", ["Resize"]),
        ("en", "归一化", ["LayerNormalization"]),
        ("en", "bilinear", ["Resize", "RoiAlign", "GridSample"]),
    ],
)
def test_interpolation_words_find_the_operators_in_either_language(
    page, site_url, lang, query, expected
):
    """The operators whose text says 双线性插值 (bilinear interpolation: Resize's and RoiAlign's
    and GridSample's Chinese text, checked in the catalog), found whole; the glossary's
    插值 and 归一化 search the English pages for interpolation and normalization."""
    page.goto(url_of(site_url, lang, "index.html"))
    search(page, query)
    hrefs = pages_of(every_result(page))
    for name in expected:
        assert url_of(site_url, lang, f"operators/ai.onnx/{name}.html") in hrefs, (name, hrefs)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unknown_word_finds_nothing_and_offers_the_other_language(page, site_url, lang):
    page.goto(url_of(site_url, lang, "index.html"))
    page.locator(".gd-search__toggle").click()
    page.locator(".gd-search__input").fill("qwertyuiop")
    page.locator(".gd-search__none a.gd-search__other").wait_for()
    assert page.locator(".gd-search__result").count() == 0


def kind_rank(href: str, base: str) -> int:
    """0 an operator page, 1 an operator-set page, 3 an evidence page (the index too), 2 any
    other (the indexes of operators and operator sets among them)."""
    path = href.removeprefix(base).removeprefix("zh/")
    index = path.endswith(("/", "index.html"))
    if path.startswith("evidence/"):
        return 3
    if path.startswith("operators/") and not index:
        return 0
    if path.startswith("opsets/") and not index:
        return 1
    return 2


@pytest.mark.parametrize(
    ("lang", "query", "first"),
    [
        ("en", "layer normalization", "operators/ai.onnx/LayerNormalization.html"),
        ("zh", "归一化", None),
        ("en", "interpolation", None),
        ("zh", "插值", None),
        ("en", "opset18", "opsets/ai.onnx/18.html"),
        ("en", "opset 18", "opsets/ai.onnx/18.html"),
        ("zh", "opset 18", "opsets/ai.onnx/18.html"),
        ("zh", "算子集 18", "opsets/ai.onnx/18.html"),
    ],
)
def test_results_are_operators_then_operator_sets_then_evidence(page, site_url, lang, query, first):
    """Every result, in order: the page a query names first (the operator, the operator set
    of "opset18" and 算子集 18), then operator pages, then operator-set pages, then the other
    pages, the evidence pages last."""
    page.goto(url_of(site_url, lang, "index.html"))
    search(page, query)
    hrefs = pages_of(every_result(page))
    if first:
        assert hrefs[0] == url_of(site_url, lang, first), hrefs[:3]
        hrefs = hrefs[1:]
    ranks = [kind_rank(h, site_url) for h in hrefs]
    assert ranks == sorted(ranks), list(zip(ranks, hrefs, strict=True))
    assert first or ranks[0] == 0
    if query == "layer normalization":  # every kind found, so every boundary checked
        assert set(ranks) == {0, 1, 2, 3}, ranks


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_the_evidence_page_leads_with_the_answer_and_fits_its_column(page, site_url, lang, width):
    """Each input and output of Resize's newest version: its combined verdict and a sentence
    naming the sources, before the sources' table, which is no wider than the column."""
    schema = newest_schema("Resize")
    at_width(page, width)
    page.goto(url_of(site_url, lang, "evidence/ai.onnx/Resize.html"))
    answers = page.locator(f"#v{schema.since_version} ~ ul.gd-answers").first
    assert answers.locator("li").count() == len(schema.inputs) + len(schema.outputs)
    table = page.locator(f"#v{schema.since_version} ~ table.gd-evidence").first
    assert answers.bounding_box()["y"] < table.bounding_box()["y"]
    column = page.locator("article").bounding_box()["width"]
    assert table.evaluate("t => t.scrollWidth") <= column + 1
    assert no_sideways_scroll(page) <= 0
    shoot(page, f"evidence-{lang}-{width}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_audit_cards_are_labelled_and_long_pages_have_a_way_to_the_top(page, site_url, lang):
    at_width(page, 390)
    page.goto(url_of(site_url, lang, "audit.html"))
    cells = page.locator("table.gd-findings tbody td")
    labels = cells.evaluate_all("cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert labels and all(label not in ("none", "normal", '""') for label in labels)
    shoot(page, f"audit-cards-{lang}-390")
    for width in (390, 1280):
        at_width(page, width)
        page.goto(url_of(site_url, lang, "operators/ai.onnx/Loop.html"))
        page.mouse.wheel(0, 6000)
        page.wait_for_timeout(300)
        page.mouse.wheel(0, -400)  # the theme shows the button when the reader scrolls up
        top = page.locator(".md-top")
        expect(top).to_be_visible()
        top.click()
        page.wait_for_function("() => window.scrollY === 0")


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_search_by_keyboard_and_marks_that_stand_out(page, site_url, lang, width):
    """Arrow keys move from the box through the results and back; Escape closes the panel and
    leaves the focus on the search button; a matched word is bold."""
    at_width(page, width)
    page.goto(url_of(site_url, lang, "index.html"))
    hrefs = search(page, "conv")
    page.wait_for_function("() => document.querySelectorAll('.gd-search__result > a').length > 2")
    hrefs = [a.get_attribute("href") for a in page.locator(".gd-search__result > a").all()]
    box = page.locator(".gd-search__input")
    box.press("ArrowDown")
    assert page.evaluate("document.activeElement.href") == hrefs[0]
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.href") == hrefs[1]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement === document.querySelector('.gd-search__input')")
    weight = page.locator(".gd-search__excerpt mark").first.evaluate(
        "m => getComputedStyle(m).fontWeight"
    )
    assert int(weight) >= 700
    page.keyboard.press("Escape")
    assert page.locator(".gd-search__panel").is_hidden()
    assert page.evaluate("document.activeElement.classList.contains('gd-search__toggle')")


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_a_missing_address_gets_its_languages_404_with_a_suggestion(page, site_url, lang, width):
    """A host that answers every missing address with the root's 404.html (GitHub Pages):
    resize.html says 404 in the address's language, names Resize, and searches for it."""
    root_404 = page.request.get(site_url + "404.html").text()
    page.route(
        "**/resize.html",
        lambda route: route.fulfill(status=404, body=root_404, content_type="text/html"),
    )
    at_width(page, width)
    page.goto(url_of(site_url, lang, "operators/ai.onnx/resize.html"))
    suggestion = page.locator("[data-gd-404] a")
    suggestion.wait_for()
    assert page.locator("html").get_attribute("lang") == lang
    assert "404" in page.title() and "404" in page.locator("article h1").inner_text()
    assert suggestion.inner_text() == "Resize"
    assert suggestion.get_attribute("href") == url_of(site_url, lang, RESIZE)
    page.locator(".gd-search__result > a").first.wait_for()
    shoot(page, f"404-{lang}-{width}")
    # The browser reports the missing address's status, which is the point: nothing else.
    page.problems[:] = [p for p in page.problems if "status of 404" not in p]


def test_each_operator_page_describes_itself_and_names_no_placeholder_host(page, site_url):
    """The description of Resize's page opens with onnx's own first words of Resize; Reshape's
    differs; the Chinese one is Chinese; no page names an example host."""
    first_words = " ".join(newest_schema("Resize").doc.split()[:4])
    described = {}
    for lang, path in (("en", RESIZE), ("en", RESHAPE), ("zh", RESIZE)):
        page.goto(url_of(site_url, lang, path))
        described[lang, path] = page.locator("meta[name=description]").get_attribute("content")
        assert "example.org" not in page.content()
    assert described["en", RESIZE].startswith(first_words)
    assert described["en", RESHAPE] != described["en", RESIZE]
    assert re.search(r"[\u4e00-\u9fff]", described["zh", RESIZE])


@pytest.mark.parametrize(("lang", "width"), BOTH)
def test_printing_opens_comparisons_and_examples_and_hides_the_controls(
    page, site_url, lang, width
):
    at_width(page, width)
    page.goto(url_of(site_url, lang, PAD))
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    folded = page.locator(".md-content details")
    assert folded.count() > 2
    assert folded.evaluate_all("all => all.every(d => d.open)")
    expect(page.locator(".md-content details.gd-diff pre.gd-diff-lines").first).to_be_visible()
    assert page.locator("form.gd-compare-picker").is_hidden()
    assert page.locator(".gd-search").is_hidden()
