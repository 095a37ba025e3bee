"""Hostile translations on the Chinese site: text on the page, nothing live in Chromium.

A small two-language site of the breakout schema is built with the plugin's
``templates`` folder holding a hostile ``gendoc.po`` (an ``<img onerror>``,
an ``<svg onload>`` and a ``<script>`` in labels the pages show) and a
hostile ``schema-com.example.breakout.po``. Each payload would set the
page's title to ``pwned-...``; the built HTML is read for live elements and
the Chinese operator page is opened in Chromium.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.present.test_github_rendering import templates  # noqa: F401 (the fixture)
from tests.site.test_site_build import Elements, mkdocs_build, small_project

DOMAINS = ["com.example.breakout", "com.example.hostile"]
SCHEMAS = ["tests.custom_schemas.hostile_breakout", "tests.custom_schemas.hostile"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, templates: Path) -> Path:  # noqa: F811
    base = tmp_path_factory.mktemp("hostile-translations")
    config = small_project(base, SCHEMAS, DOMAINS)
    text = config.read_text(encoding="utf-8")
    marker = f"      domains: {json.dumps(DOMAINS)}\n"
    assert marker in text
    config.write_text(text.replace(marker, f"{marker}      templates: {templates}\n"))
    done = mkdocs_build(config, base / "out", base / "cache")
    assert done.returncode == 0, done.stderr
    return base / "out"


def _chinese_page(site: Path, name: str) -> Path:
    (found,) = (site / "zh").rglob(f"{name}.html")
    return found


def _live(html: str) -> list[str]:
    """Elements a payload made: a handler, a ``javascript:`` URL, anything naming ``pwned``
    or a payload's host (the theme's own icons and scripts name none)."""
    parser = Elements()
    parser.feed(html)
    live = []
    for tag, attrs in parser.found:
        for name, value in attrs.items():
            lowered = value.replace(" ", "").lower()
            # Schema text may link; a page's description is text (the start of the schema's).
            described = tag == "meta" and attrs.get("name") == "description" and name == "content"
            fetches = "breakout.example" in lowered and name != "href" and not described
            if name.startswith("on") or "javascript:" in lowered or "pwned" in lowered or fetches:
                live.append(f"<{tag} {name}={value}>")
        if tag in ("img", "iframe", "object", "embed") and "assets" not in attrs.get("src", ""):
            live.append(f"<{tag}>")
    return live


def test_hostile_labels_are_text_on_the_chinese_pages(site: Path) -> None:
    breakout = _chinese_page(site, "Breakout").read_text(encoding="utf-8")
    assert "试图离开 HTML 块的模式。" in breakout  # the schema catalog was used
    assert _live(breakout) == []
    html = _chinese_page(site, "Hostile").read_text(encoding="utf-8")
    assert "pwned-img" in html and "pwned-svg" in html  # the labels are on the page, as text
    assert _live(html) == []
    assert "pwned" not in "".join(part.split("</script>")[0] for part in html.split("<script")[1:])


@pytest.mark.browser
def test_nothing_runs_in_chromium(site: Path) -> None:
    from tests.site.test_site_browser import CHROMIUM, LAUNCH_ARGS, serve, sync_playwright

    page_path = _chinese_page(site, "Hostile").relative_to(site).as_posix()
    with serve(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        tab = browser.new_page()
        dialogs: list[str] = []
        tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        tab.goto(url + page_path)
        tab.wait_for_load_state("networkidle")
        title = tab.title()
        handlers = tab.locator("[onerror], [onload], [onclick]").count()
        visible = tab.locator("article").inner_text()
        browser.close()
    assert "pwned" not in title and dialogs == [] and handlers == 0
    assert "pwned-img" in visible  # shown as text


def test_a_broken_site_template_is_one_line(tmp_path: Path) -> None:
    """A template of the site that fails stops the build with one line naming it, as on the
    command line, not with mkdocs' traceback."""
    folder = tmp_path / "templates" / "site"
    folder.mkdir(parents=True)
    (folder / "operator.html.j2").write_text('fine\n{{ 1 + "a" }}\n', encoding="utf-8")
    config = small_project(tmp_path, SCHEMAS[:1], DOMAINS[:1])
    text = config.read_text(encoding="utf-8")
    marker = f"      domains: {json.dumps(DOMAINS[:1])}\n"
    config.write_text(text.replace(marker, f"{marker}      templates: {tmp_path / 'templates'}\n"))
    done = mkdocs_build(config, tmp_path / "out", tmp_path / "cache")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = [line for line in done.stderr.splitlines() if "operator.html.j2" in line]
    assert f"{folder / 'operator.html.j2'}:2: TypeError:" in line
