"""Pages written as HTML: their headings, table of contents and links, as mkdocs would make them.

The expected ids and table-of-contents entries are what Python-Markdown's
``toc`` extension makes of the same headings (checked side by side in the
first test), so an HTML page reads in the theme exactly like a converted one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from markupsafe import Markup

from gendoc.collect import installed
from gendoc.site.pages import SiteContent, relative_url, static_findings
from gendoc.site.rendered import Headings
from tests.site.test_site_build import mkdocs_build, small_project
from tests.site.test_site_crawl import Links, broken_links


def test_ids_and_toc_match_the_toc_extension() -> None:
    """An auto id is unique among all heading ids, also the explicit ones written after it."""
    headings = Headings()
    parts = [
        headings.heading(1, Markup("Compare")),
        headings.heading(2, Markup('Version 3 <span class="gd-mark">deprecated</span>'), "v3"),
        headings.heading(3, Markup("input <code>X</code>")),
        headings.heading(2, Markup("Compare versions"), "compare"),
    ]
    page = headings.finish("\n".join(parts))

    converter = markdown.Markdown(extensions=["attr_list", "toc"])
    converter.convert(
        "# Compare\n\n"
        '## Version 3 <span class="gd-mark">deprecated</span> {#v3}\n\n'
        "### input `X`\n\n"
        "## Compare versions {#compare}\n"
    )

    def outline(tokens: list) -> list:
        return [(t["level"], t["id"], t["name"], outline(t["children"])) for t in tokens]

    assert outline(list(page.toc)) == outline(converter.toc_tokens)
    assert outline(list(page.toc)) == [
        (
            1,
            "compare_1",
            "Compare",
            [
                (2, "v3", "Version 3 deprecated", [(3, "input-x", "input X", [])]),
                (2, "compare", "Compare versions", []),
            ],
        )
    ]
    assert page.text.startswith(
        '<h1 id="compare_1">Compare<a class="headerlink" href="#compare_1" '
        'title="Permanent link">&para;</a></h1>'
    )
    assert "\x00" not in page.text


def test_a_heading_id_must_be_usable() -> None:
    with pytest.raises(ValueError, match="not a usable heading id"):
        Headings().heading(2, Markup("x"), 'v1" onclick="alert(1)')


@pytest.mark.parametrize(
    ("directory_urls", "expected"),
    [
        (False, ["../index.html", "../../audit.html", "Relu.html", "index.html"]),
        (True, ["../../", "../../../audit/", "../Relu/", "../"]),
    ],
)
def test_links_name_the_urls_mkdocs_writes(directory_urls: bool, expected: list[str]) -> None:
    source = "operators/ai.onnx/Reshape.md"
    targets = ["operators/index.md", "audit.md", "operators/ai.onnx/Relu.md"]
    targets.append("operators/ai.onnx/index.md")
    assert [relative_url(source, t, directory_urls) for t in targets] == expected


def test_html_pages_link_right_with_directory_urls(tmp_path: Path) -> None:
    """mkdocs' default layout (a folder per page): every link of the site still resolves."""
    config = small_project(
        tmp_path, ["tests.custom_schemas.diff_v2"], ["com.example"], directory_urls=True
    )
    out = tmp_path / "out"

    done = mkdocs_build(config, out, tmp_path / "cache")

    assert done.returncode == 0, done.stderr
    pages = {}
    for path in sorted(out.rglob("*.html")):
        parser = Links()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(out).as_posix()] = parser
    operator_pages = [
        p for p in pages if p.startswith(("operators/com.example/", "zh/operators/com.example/"))
    ]
    assert any(p.endswith("/index.html") and p.count("/") == 3 for p in operator_pages)
    broken = list(broken_links(out, pages, "https://example.invalid/"))
    assert broken == [], "\n".join(broken)


SHARED_TEMPLATE = """
import dataclasses, sys
from gendoc.collect import installed
from gendoc.present import render
from gendoc.site.pages import environment, static_findings
base = render.environment(render.RenderOptions(lang="en"))
env = base if sys.argv[1] == "markdown" else environment(None, "en", "")
finding = dataclasses.replace(static_findings(installed.reference(()))[0], rule="<x>")
table = "{% from 'cli/_audit.j2' import findings_table %}{{ findings_table([f]) }}"
print(env.from_string(table).render(f=finding))
"""


@pytest.mark.parametrize("first", ["markdown", "html"])
def test_a_template_of_both_environments_is_escaped_only_in_html(
    tmp_path: Path, first: str
) -> None:
    """``cli/_audit.j2`` serves the Markdown audit report and the site's audit page; each
    environment runs its own compiled code, whichever compiled the template first."""
    env = {**os.environ, "GENDOC_CACHE_DIR": str(tmp_path)}

    def table(kind: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", SHARED_TEMPLATE, kind],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return done.stdout

    second = "html" if first == "markdown" else "markdown"
    outputs = {first: table(first), second: table(second)}
    assert "<td>&lt;x&gt;</td>" not in outputs["markdown"]
    assert "<x>" in outputs["markdown"]
    assert "&lt;x&gt;" in outputs["html"]
    assert "<x>" not in outputs["html"]


def test_mkdocs_converts_no_large_generated_markdown() -> None:
    """Python-Markdown's conversion grows with the page: the pages of long tables (the
    audit, the coverage, the domain indexes) come as HTML, with their headings in the
    table of contents; what is left as Markdown is a few kilobytes."""
    reference = installed.reference((), with_details=True)
    content = SiteContent(reference, static_findings(reference))
    for lang in ("en", "zh"):
        for path in ("audit.md", "coverage.md", "operators/ai.onnx/index.md"):
            page = content.render(path, lang)
            assert page.toc and len(page.text) > 30_000
        markdown_pages = [
            (path, len(content.render(path, lang).text))
            for path, spec in content.pages.items()
            if spec.per_language and not spec.template.endswith(".html.j2")
        ]
        assert markdown_pages and all(size < 16_000 for _, size in markdown_pages)
        assert all(content.render(path, lang).toc is None for path, _ in markdown_pages)


def test_a_page_written_as_html_gives_the_markdown_hooks_nothing() -> None:
    """The plugin's Markdown hook, first of the site's, gives the later hooks (the i18n
    plugin's, which rewrites every line) an empty text for a page written as HTML and keeps
    its body for the render; a Markdown page's text goes through as it is."""
    from mkdocs.structure.files import File
    from mkdocs.structure.pages import Page

    from gendoc.site.plugin import GendocPlugin
    from gendoc.site.rendered import Headings, serve_html

    headings = Headings()
    rendered = headings.finish(f'{headings.heading(1, Markup("Add"))}\n<p id="x">!!! note\n</p>\n')
    body = rendered.text
    page = Page(None, File("en/operators/ai.onnx/Add.md", "", "", False), {})
    serve_html(page, rendered)
    plugin = GendocPlugin()
    assert plugin.on_page_markdown(body, page, None, None) == ""  # type: ignore[arg-type]
    page.render(None, None)  # type: ignore[arg-type]
    assert page.content == body.removesuffix("\n")
    assert page.present_anchor_ids == {"add", "x"}
    markdown = Page(None, File("en/guide.md", "", "", False), {})
    assert plugin.on_page_markdown("!!! note\n", markdown, None, None) == "!!! note\n"  # type: ignore[arg-type]
