"""The bilingual site: a strict build, its pages in both languages, and what they show.

Builds run in child processes: the hostile site registers schemas with onnx,
which is global to a process and would leak into the other tests. Expected
figures are computed here from ``onnx.defs`` directly, not through gendoc's
model, so that a mistake in the model or the site cannot hide itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from html.parser import HTMLParser
from itertools import combinations, pairwise
from pathlib import Path, PurePosixPath

import msgspec
import pytest
from markupsafe import escape
from onnx import defs

from gendoc.audit import audit_reference
from gendoc.collect.schemas import collect
from gendoc.site import search_index
from gendoc.site.frame_stencil import FRAME_VARIABLE
from gendoc.site.languages import JOBS_VARIABLE, may_fork
from gendoc.site.pages import SiteContent
from gendoc.site.parts import INLINE_BELOW
from gendoc.site.search_index import Pages, html_key

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "zh")
LABELS = {
    "en": {"differentiable": "differentiable", "non-differentiable": "non-differentiable"},
    "zh": {"differentiable": "可微", "non-differentiable": "不可微"},
}
CATEGORY = {
    "Differentiable": "differentiable",
    "NonDifferentiable": "non-differentiable",
    "Unknown": "undefined",
}
PROJECT_CONFIG = """\
site_name: {name}
docs_dir: docs
use_directory_urls: {directory_urls}
theme:
  name: material
  font: false
  custom_dir: {overrides}
markdown_extensions: [attr_list, tables, toc]
validation:
  anchors: warn
plugins:
  - gendoc:
      schemas: {schemas}
      domains: {domains}
  - i18n:
      docs_structure: folder
      reconfigure_search: false
      languages:
        - {{locale: en, name: English, default: true}}
        - {{locale: zh, name: 中文}}
"""
HOSTILE_SCHEMAS = ["tests.custom_schemas.hostile", "tests.custom_schemas.hostile_names"]
HOSTILE_DOMAINS = [
    "com.example.hostile",
    "com.example.names",
    'com.x<img src="x" onerror="alert(\'domain\')">',
]


# Where the test builds say the site is published: a host of the reserved .test domain.
SITE_URL = "https://site.test/"


def mkdocs_build(
    config: Path,
    out: Path,
    cache: Path | None = None,
    jobs: int | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` in a child process (see the module doc), with its own cache;
    ``jobs=1`` builds the languages one after another (by default in two processes); ``env``
    adds variables. The site says it is published at :data:`SITE_URL` (mkdocs.yml reads
    ``SITE_URL``), so that its sitemap and canonical links are written."""
    cached = (
        {"GENDOC_CACHE_DIR": str(cache), "SITE_URL": SITE_URL} if cache else {"SITE_URL": SITE_URL}
    )
    if jobs is not None:
        cached[JOBS_VARIABLE] = str(jobs)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **cached, **(env or {})},
        capture_output=True,
        text=True,
        timeout=900,
    )


def build_site(
    out: Path, cache: Path | None = None, jobs: int | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """This repository's site, exactly as ``make docs`` builds it."""
    return mkdocs_build(ROOT / "mkdocs.yml", out, cache, jobs, env)


def small_project(
    base: Path,
    schemas: list[str],
    domains: list[str],
    *,
    directory_urls: bool = False,
) -> Path:
    """A two-language mkdocs project in ``base`` documenting only ``domains`` (after
    importing the schema modules ``schemas``): its configuration file."""
    for lang, title in (("en", "# Home"), ("zh", "# 首页")):
        (base / "docs" / lang).mkdir(parents=True, exist_ok=True)
        (base / "docs" / lang / "index.md").write_text(title + "\n", encoding="utf-8")
    config = base / "mkdocs.yml"
    text = PROJECT_CONFIG.format(
        name=base.name,
        directory_urls=json.dumps(directory_urls),
        overrides=ROOT / "templates" / "site" / "overrides",
        schemas=json.dumps(schemas),
        domains=json.dumps(domains),
    )
    config.write_text(text, encoding="utf-8")
    return config


def hostile_project(base: Path) -> Path:
    """The site of the schemas in ``tests/custom_schemas/hostile*.py`` only, in ``base``."""
    return small_project(base, HOSTILE_SCHEMAS, HOSTILE_DOMAINS)


def build_hostile_site(base: Path) -> subprocess.CompletedProcess[str]:
    """The hostile site, built into ``base / "out"`` and cached in ``base``."""
    return mkdocs_build(hostile_project(base), base / "out", base / "cache")


@pytest.fixture(scope="module")
def site_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache folder of the ``site`` build, empty before it."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, site_cache: Path) -> Path:
    """The site, built from nothing: with an empty cache."""
    out = tmp_path_factory.mktemp("site") / "out"
    done = build_site(out, site_cache)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile")
    done = build_hostile_site(base)
    assert done.returncode == 0, done.stderr
    return base / "out"


def page(site: Path, lang: str, path: str) -> str:
    prefix = "" if lang == "en" else f"{lang}/"
    return (site / f"{prefix}{path}").read_text(encoding="utf-8")


def article(html: str) -> str:
    """The page's own content, without the theme's header, navigation and scripts."""
    match = re.search(r"<article\b.*?</article>", html, re.S)
    assert match, "no <article> in the page"
    return match.group(0)


@cache
def onnx_operators() -> dict[tuple[str, str], list[defs.OpSchema]]:
    """Every operator's versions, oldest first, straight from onnx."""
    found: dict[tuple[str, str], list[defs.OpSchema]] = {}
    for schema in defs.get_all_schemas_with_history():
        found.setdefault((schema.domain, schema.name), []).append(schema)
    return {key: sorted(v, key=lambda s: s.since_version) for key, v in sorted(found.items())}


def tag(param: defs.OpSchema.FormalParameter) -> str:
    return CATEGORY[param.differentiation_category.name]


def tags_by_name(schema: defs.OpSchema) -> dict[tuple[str, str], str]:
    return {
        **{("input", p.name): tag(p) for p in schema.inputs},
        **{("output", p.name): tag(p) for p in schema.outputs},
    }


class Tables(HTMLParser):
    """The rows of every table after each heading id: {heading id: [[cell text]]}, as a wide
    screen shows them (without the column names a phone shows in each cell, ``.gd-cl``)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.heading = ""
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.label = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "span" and dict(attrs).get("class") == "gd-cl":
            self.label = True
        elif tag in ("h2", "h3") and dict(attrs).get("id"):
            self.heading = dict(attrs)["id"] or ""
        elif tag == "tr":
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self.label = False
        elif tag == "td" and self.row is not None and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row:
            self.tables.setdefault(self.heading, []).append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.label:
            self.cell.append(data)


def tables_of(html: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(article(html))
    return parser.tables


# ---------------------------------------------------------------------------- the build


def test_strict_build_passes_with_no_warning(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "zh" / "index.html").is_file()


def every_file(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_the_chinese_index_is_the_one_the_whole_pages_give(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind is given each Chinese page cut down to its marked text; over this site's
    pages it writes the index it writes from the whole pages, byte for byte, but for the
    query vocabulary, which loses the words only the theme's frame has."""
    pages = Pages("zh", "zh")
    search_index.run_pagefind(site, pages, True, tmp_path / "cut")
    monkeypatch.setattr(search_index, "marked_text", lambda html, lang: None)
    search_index.run_pagefind(site, pages, True, tmp_path / "whole")
    files = {}
    for name in ("cut", "whole"):
        folder = tmp_path / name
        files[name] = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*.*")}
    words = {
        name: set(json.loads(found.pop(Path("words-qzh.json")))) for name, found in files.items()
    }
    assert len(files["cut"]) > 400 and files["cut"] == files["whole"]
    assert words["cut"] < words["whole"] and len(words["whole"] - words["cut"]) < 10


def test_a_rebuild_from_the_cache_writes_the_same_bytes(
    site: Path, site_cache: Path, tmp_path: Path
) -> None:
    """Rendered pages, Markdown conversions and the search index all come from the cache the
    first build filled (it is not written again: nothing was missing), and no byte differs."""
    (folder,) = site_cache.glob("site-*")
    stores = [folder / f"pages-{lang}.msgpack" for lang in LANGUAGES]
    # One kept bundle per language, each named after the HTML of that language's pages.
    parts = {"en": Pages("en", skip=frozenset({"zh"})), "zh": Pages("zh", "zh")}
    kept = {lang: [p.name for p in (folder / "search-index" / lang).iterdir()] for lang in parts}
    assert kept == {lang: [html_key(site, pages)] for lang, pages in parts.items()}
    for store in stores:  # every operator's page (HTML), and the Markdown pages' conversions
        entries = msgspec.msgpack.decode(store.read_bytes()).values()
        assert len([e for e in entries if isinstance(e, list)]) > len(onnx_operators())
        assert [e for e in entries if isinstance(e, dict)]
    written = [store.stat().st_mtime_ns for store in stores]

    done = build_site(tmp_path / "warm", site_cache)

    assert done.returncode == 0, done.stderr
    assert [store.stat().st_mtime_ns for store in stores] == written
    assert {
        lang: [p.name for p in (folder / "search-index" / lang).iterdir()] for lang in parts
    } == kept
    cold, warm = every_file(site), every_file(tmp_path / "warm")
    assert sorted(warm) == sorted(cold)
    assert [name for name in sorted(cold) if cold[name] != warm[name]] == []


def test_languages_built_in_two_processes_are_the_same_site_as_one_after_another(
    site: Path, tmp_path: Path
) -> None:
    """The ``site`` build forked the Chinese build beside the English one (this machine has
    a second core); one process building both, as the i18n plugin does, writes every file
    with the same bytes: the sitemap of both languages, each language's 404 page."""
    assert may_fork(), "the site fixture is meant to build its languages in two processes"
    done = build_site(tmp_path / "one", tmp_path / "cache", jobs=1)
    assert done.returncode == 0, done.stderr
    together, forked = every_file(tmp_path / "one"), every_file(site)
    assert sorted(forked) == sorted(together)
    assert [name for name in sorted(together) if together[name] != forked[name]] == []
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{SITE_URL}zh/operators/ai.onnx/Reshape.html</loc>" in sitemap
    assert f"<loc>{SITE_URL}operators/ai.onnx/Reshape.html</loc>" in sitemap
    for lang, home in (("zh", "首页"), ("en", "Home")):
        not_found = site / ("404.html" if lang == "en" else "zh/404.html")
        text = not_found.read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in text
        # the language switch of an error page leads to each language's home page
        assert 'href="/index.html" hreflang="en"' in text, home
        assert 'href="/zh/index.html" hreflang="zh"' in text


def test_the_frames_filled_in_are_the_site_rendered_in_full(site: Path, tmp_path: Path) -> None:
    """The ``site`` build filled a stencil of Material's frame for most pages outside the
    navigation (gendoc.site.frame_stencil); every page's frame rendered in full by Material
    (``GENDOC_SITE_FRAME=full``) writes every file of the site with the same bytes."""
    done = build_site(tmp_path / "full", tmp_path / "cache", env={FRAME_VARIABLE: "full"})
    assert done.returncode == 0, done.stderr
    full, filled = every_file(tmp_path / "full"), every_file(site)
    assert sorted(filled) == sorted(full)
    assert [name for name in sorted(full) if full[name] != filled[name]] == []
    assert len([name for name in full if name.startswith("zh/operators/")]) > 200


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_second_language_fails_the_build(tmp_path: Path, jobs: int) -> None:
    """A broken link on a Chinese page only: strict mode fails the Chinese build, in the
    worker process or not, and so the build; the message names the link."""
    config = hostile_project(tmp_path)
    page = tmp_path / "docs" / "zh" / "index.md"
    page.write_text("# 首页\n\n[断开](missing.md)\n", encoding="utf-8")
    done = mkdocs_build(config, tmp_path / "out", tmp_path / "cache", jobs)
    assert done.returncode != 0
    assert "missing.md" in done.stderr
    if jobs == 2:
        assert "gendoc: the build of zh failed" in done.stderr
    assert not list(tmp_path.glob(".*"))  # no folder of search-index parts left beside "out"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_pagefind_fails_the_build_in_one_line(
    tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When Pagefind fails, in one process or in both, the build fails with Pagefind's last
    line, writes no search index, keeps none, and leaves nothing beside the site."""
    failing = tmp_path / "pagefind"
    failing.write_text("#!/bin/sh\necho 'Error: the disk is full' >&2\nexit 3\n")
    failing.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(failing))
    project = tmp_path / "project"
    done = mkdocs_build(hostile_project(project), project / "out", project / "cache", jobs)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if "pagefind failed" in line]
    assert errors and all(line.endswith("Error: the disk is full") for line in errors), errors
    assert not (project / "out" / "pagefind").exists()
    assert not list(project.glob(".*"))
    assert not list((project / "cache").rglob("search-index/*/*"))  # no index kept


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "guide.html",
        "gradients.html",
        "operators/index.html",
        "operators/ai.onnx/index.html",
        "operators/ai.onnx.ml/index.html",
        "operators/ai.onnx/Reshape.html",
        "coverage.html",
        "coverage.svg",
        "audit.html",
    ],
)
def test_every_page_exists_in_both_languages(site: Path, lang: str, path: str) -> None:
    assert page(site, lang, path)


def test_every_operator_has_a_page_in_both_languages(site: Path) -> None:
    for domain, name in onnx_operators():
        for lang in LANGUAGES:
            assert page(site, lang, f"operators/{domain or 'ai.onnx'}/{name}.html")


def test_nothing_generated_is_in_the_sources() -> None:
    for lang in LANGUAGES:
        assert not (ROOT / "site" / lang / "operators").exists()
        assert not (ROOT / "site" / lang / "coverage.md").exists()


# ---------------------------------------------------------------------------- operator pages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_operator_page_shows_every_version_with_its_tags(site: Path, lang: str) -> None:
    versions = onnx_operators()[("", "Reshape")]
    html = article(page(site, lang, "operators/ai.onnx/Reshape.html"))
    for schema in versions:
        assert f'id="v{schema.since_version}"' in html
    shown = re.findall(
        r'<dt id="[^"]*"><code>([^<]*)</code> <a class="gd-tag-link" href="[^"]*">'
        r'<span class="gd-tag gd-tag-([a-z-]+)">([^<]*)',
        html,
    )
    expected = [
        (p.name, tag(p))
        for schema in reversed(versions)
        if not schema.deprecated
        for p in [*schema.inputs, *schema.outputs]
    ]
    assert [(name, value) for name, value, _ in shown] == expected
    for name, value, label in shown:
        if value != "undefined":
            assert label == LABELS[lang][value], (name, value, label)


def test_chinese_pages_use_chinese_labels_for_everything_gendoc_writes(site: Path) -> None:
    latest = max(s.since_version for s in onnx_operators()[("", "Reshape")])
    html = article(page(site, "zh", "operators/ai.onnx/Reshape.html"))
    for label in ("输入", "输出", "属性", "类型约束", f"第 {latest} 版", "标签的含义"):
        assert label in html
    for english in (">Inputs<", ">Outputs<", "What the tags mean", f">Version {latest}<"):
        assert english not in html


def test_the_statement_on_undefined_is_made_once_at_the_top(site: Path) -> None:
    index = article(page(site, "en", "operators/index.html"))
    assert 'id="differentiability"' in index
    assert "makes no claim either way" in index
    reshape = article(page(site, "en", "operators/ai.onnx/Reshape.html"))
    assert "makes no claim either way" not in reshape
    assert 'href="../index.html#differentiability"' in reshape


def flipped(old: defs.OpSchema, new: defs.OpSchema) -> bool:
    """Whether a parameter kept under its name changed its tag between the two versions."""
    before, after = tags_by_name(old), tags_by_name(new)
    return any(key in before and before[key] != value for key, value in after.items())


def part(site: Path, lang: str, page_path: str, name: str, section: str) -> str:
    """The section ``section`` of a part file of a page, written beside it (``Cast.html``
    -> ``Cast.<name>.htm``): the element of that id, up to the end of its element."""
    text = page(site, lang, f"{page_path.removesuffix('.html')}.{name}.htm")
    found = re.search(rf'<(div|section) id="{section}">(.*?)</\1>', text, re.S)
    assert found, (page_path, name, section)
    return found.group(2)


def test_diffs_between_versions_make_tag_changes_stand_out(site: Path) -> None:
    flips = 0
    for (domain, name), versions in onnx_operators().items():
        if domain or len(versions) < 2:
            continue
        path = f"operators/ai.onnx/{name}.html"
        html = article(page(site, "en", path))
        for old, new in pairwise(versions):
            pair = f"diff-{old.since_version}-{new.since_version}"
            fetched = f'data-gd-part="{name}.changes-{new.since_version}.htm#{pair}"'
            assert html.count(f'id="{pair}"') == 1, (name, pair)
            body = part(site, "en", path, f"changes-{new.since_version}", pair)
            if flipped(old, new):
                flips += 1
                tagged = f'<details class="gd-diff gd-diff-tagged" id="{pair}" open {fetched}>'
                assert tagged in html, (name, pair)
                assert 'class="gd-tag-changes"' in body and "gd-dtag" in body, (name, pair)
            else:
                assert f'<details class="gd-diff" id="{pair}" {fetched}>' in html, (name, pair)
                assert "gd-tag-changes" not in body, (name, pair)
        if any(flipped(old, new) for old, new in pairwise(versions)):
            assert 'class="gd-tag-change"' in html, name
        else:
            assert "gd-diff-tagged" not in html, name
    assert flips


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_pair_of_versions_has_its_diff_and_the_pages_stay_light(
    site: Path, lang: str
) -> None:
    """The picker's list links every pair of versions to its section of the comparisons into
    its newer version; no operator page's HTML is over 150 KB (Cast's was 445 KB with every
    pair written out)."""
    for (domain, name), versions in onnx_operators().items():
        path = f"operators/{domain or 'ai.onnx'}/{name}.html"
        html = page(site, lang, path)
        assert len(html.encode()) <= 150_000, (path, len(html.encode()))
        for old, new in combinations(versions, 2):
            pair = f"diff-{old.since_version}-{new.since_version}"
            changes = f"changes-{new.since_version}"
            link = f'<a href="{name}.{changes}.htm#{pair}" data-gd-pair="{old.since_version} '
            assert link in html, (path, pair)
            # The comparisons into a version are a page of their own, in the page's language,
            # each a section whose body the picker takes (data-gd-part-body).
            whole = page(site, lang, f"{path.removesuffix('.html')}.{changes}.htm")
            assert whole.lstrip().startswith(f'<!doctype html>\n<html lang="{lang}"'), (path, pair)
            body = part(site, lang, path, changes, pair)
            taken = body.split("<div data-gd-part-body>\n", 1)[1].lstrip()
            assert taken.startswith(("<ul", '<pre class="gd-diff-lines">', "<p>")), (path, pair)
        # One file per version that has an older one, none for the first, beside the page.
        folder = (site / ("" if lang == "en" else lang) / path).parent
        written = sorted(p.name for p in folder.glob(f"{name}.changes-*.htm"))
        expected = sorted(f"{name}.changes-{v.since_version}.htm" for v in versions[1:])
        assert written == expected, path


EXAMPLES_HEADING = {"en": "Examples", "zh": "示例"}
RELEASE = re.compile(r"\d+\.\d+\.\d+(rc\d+)?")
"""An onnx version with a tag in onnx's repository; links of other versions go to main."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_operator_pages_show_onnx_examples_as_code(site: Path, lang: str) -> None:
    """Every snippet of onnx's backend test cases (read as test_onnx_compat checks) is shown."""
    from gendoc.collect.examples import examples_of, onnx_folder, read_examples

    examples = examples_of(read_examples(onnx_folder()), ml=True)
    shown = inline = 0
    for (domain, name), _ in onnx_operators().items():
        found = examples.get(name, ())
        if domain or not found:
            continue
        path = f"operators/ai.onnx/{name}.html"
        html = article(page(site, lang, path))
        assert f'id="examples">{EXAMPLES_HEADING[lang]}' in html, name
        for n, example in enumerate(found, 1):
            assert f"<summary><code>{escape(example.summary)}</code></summary>" in html
            code = f'<code class="language-python">{escape(example.code)}</code>'
            fetched = f'data-gd-part="{name}.examples.htm#example-{n}"'
            if len(code) < INLINE_BELOW - len('<pre class="gd-code"></pre>'):
                assert code in html and fetched not in html, (name, example.summary)
                inline += 1
            else:
                assert fetched in html, name
                assert code not in html
                assert code in part(site, lang, path, "examples", f"example-{n}"), name
            shown += 1
    assert shown > 500
    assert 0.5 < inline / shown < 0.9  # most are short enough to stay in the page


def test_function_bodies_are_onnx_printer_text(site: Path) -> None:
    """Each body printed here from onnx (not through gendoc) is on its operator's page."""
    import onnx
    from onnx import printer

    bodies = 0
    for (domain, name), versions in onnx_operators().items():
        if domain:
            continue
        html = article(page(site, "en", f"operators/ai.onnx/{name}.html"))
        for schema in versions:
            if not schema.has_function:
                continue
            for version in schema.function_opset_versions:
                proto = onnx.FunctionProto.FromString(
                    schema.get_function_with_opset_version(version)
                )
                assert escape(printer.to_text(proto)) in html, (name, version)
                bodies += 1
    assert bodies > 20


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_version_shows_support_inference_and_its_definition(site: Path, lang: str) -> None:
    import onnx

    support = {"en": "Support level: common", "zh": "支持级别：常规"}[lang]
    for name in ("Reshape", "Celu", "Relu"):
        html = article(page(site, lang, f"operators/ai.onnx/{name}.html"))
        for schema in onnx_operators()[("", name)]:
            path = schema.file[schema.file.rindex("onnx/defs/") :]
            ref = f"v{onnx.__version__}" if RELEASE.fullmatch(onnx.__version__) else "main"
            url = f"https://github.com/onnx/onnx/blob/{ref}/{path}#L{schema.line}"
            assert f'<a href="{url}">' in html, (name, schema.since_version)
        assert html.count(f"<li>{support}</li>") == len(onnx_operators()[("", name)])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_names_the_onnx_release(site: Path, lang: str) -> None:
    import onnx

    root = site if lang == "en" else site / lang
    pages = [
        p for p in root.rglob("*.html") if lang != "en" or "zh" not in p.relative_to(site).parts
    ]
    assert len(pages) > 200
    version = onnx.__version__
    wanted = f'/onnx/onnx/releases/tag/v{version}">onnx {version}</a>'
    if not RELEASE.fullmatch(version):  # a development build has no tag: its version only
        wanted = f"onnx {version}"
    for path in pages:
        assert wanted in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_switcher_leads_to_the_same_page(site: Path, lang: str) -> None:
    path = "operators/ai.onnx/Reshape.html"
    html = page(site, lang, path)
    here = PurePosixPath("/") / ("" if lang == "en" else lang) / path
    for other in LANGUAGES:
        match = re.search(rf'<a href="([^"]+)" hreflang="{other}" class="md-select__link">', html)
        assert match, other
        target = os.path.normpath(str(here.parent / match.group(1)))
        assert target == str(PurePosixPath("/") / ("" if other == "en" else other) / path)


def sidebar(html: str) -> str:
    """The navigation in a page's sidebar."""
    return html[
        html.index('<nav class="md-nav md-nav--primary"') : html.index("md-sidebar--secondary")
    ]


def marked_links(nav: str) -> list[str]:
    """The links of the entries the navigation marks active, other than the page itself (a
    section is marked too, when one of its pages is)."""
    return re.findall(r'<li class="md-nav__item md-nav__item--active">\s*<a href="([^"]+)"', nav)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_outside_the_navigation_marks_its_domain(site: Path, lang: str) -> None:
    """The sidebar of the pages outside the navigation is rendered once per folder and marked
    entries (gendoc.site.theme_frame): each operator page still marks its own domain's index,
    its links relative to its own folder; a page in the navigation marks itself."""
    domains = ("ai.onnx", "ai.onnx.ml")
    for domain, other in (domains, domains[::-1]):
        folder = site / ("" if lang == "en" else lang) / "operators" / domain
        operators = sorted(p.name for p in folder.glob("*.html") if p.name != "index.html")
        for name in (operators[0], operators[-1]):
            nav = sidebar(page(site, lang, f"operators/{domain}/{name}"))
            assert marked_links(nav) == ["index.html"], name
            assert f'<a href="../{other}/index.html" class="md-nav__link">' in nav
            assert "md-nav__link--active" not in nav
    for path in ("audit.html", "guide.html"):
        nav = sidebar(page(site, lang, path))
        assert marked_links(nav) == []
        assert f'<a href="{path}" class="md-nav__link md-nav__link--active">' in nav


# ---------------------------------------------------------------------------- coverage


@cache
def expected_coverage() -> dict[str, dict[int, tuple[int, Counter[str]]]]:
    """Per domain and operator set version: operators and tag counts, from onnx.defs."""
    names: dict[str, set[str]] = {}
    versions: dict[str, set[int]] = {}
    for schema in defs.get_all_schemas_with_history():
        names.setdefault(schema.domain, set()).add(schema.name)
        versions.setdefault(schema.domain, set()).add(schema.since_version)
    result: dict[str, dict[int, tuple[int, Counter[str]]]] = {}
    for domain in sorted(names):
        per_version = {}
        for version in range(min(versions[domain]), max(versions[domain]) + 1):
            operators, counts = 0, Counter()
            for name in names[domain]:
                try:
                    schema = defs.get_schema(name, version, domain)
                except defs.SchemaError:
                    continue  # not yet introduced at this version
                if schema.deprecated:
                    continue
                operators += 1
                counts.update(tag(p) for p in [*schema.inputs, *schema.outputs])
            per_version[version] = (operators, counts)
        result[domain] = per_version
    return result


def number(cell: str) -> int:
    return int(cell.split()[0])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_coverage_per_opset_version_matches_onnx_defs(site: Path, lang: str) -> None:
    tables = tables_of(page(site, lang, "coverage.html"))
    expected = expected_coverage()
    for position, domain in enumerate(expected, start=1):
        rows = tables[f"opset-{position}"]
        assert [number(r[0]) for r in rows] == list(expected[domain])
        for row in rows:
            operators, counts = expected[domain][number(row[0])]
            total = sum(counts.values())
            assert number(row[1]) == operators, (domain, row)
            assert [number(c) for c in row[2:6]] == [
                counts["differentiable"],
                counts["non-differentiable"],
                counts["undefined"],
                total,
            ], (domain, row)
            share = 100 * counts["undefined"] / total if total else 0.0
            assert row[4].endswith(f"({share:.1f}%)")


def test_coverage_per_domain_is_the_newest_opset(site: Path) -> None:
    rows = tables_of(page(site, "en", "coverage.html"))["by-domain"]
    expected = expected_coverage()
    assert len(rows) == len(expected)
    for row, (domain, per_version) in zip(rows, expected.items(), strict=True):
        newest = max(per_version)
        operators, counts = per_version[newest]
        assert number(row[1]) == newest and number(row[2]) == operators, (domain, row)
        assert number(row[5]) == counts["undefined"], (domain, row)


def test_coverage_lists_the_operators_still_undefined(site: Path) -> None:
    tables = tables_of(page(site, "en", "coverage.html"))
    domains = list(expected_coverage())
    for (domain, name), versions in onnx_operators().items():
        latest = versions[-1]
        undefined = [p.name for p in [*latest.inputs, *latest.outputs] if tag(p) == "undefined"]
        rows = tables.get(f"undefined-{domains.index(domain) + 1}", [])
        listed = {row[0]: row[2] for row in rows}
        assert (name in listed) == bool(undefined and not latest.deprecated), (domain, name)
        if name in listed:
            assert listed[name].startswith(f"{len(undefined)}/"), (domain, name)


def test_coverage_chart_is_a_static_deterministic_svg(site: Path) -> None:
    svg = (site / "coverage.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert not root.findall(".//{http://www.w3.org/2000/svg}script")
    bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.find("*") is not None]
    expected = expected_coverage()
    segments = sum(
        sum(1 for n in counts.values() if n)
        for per_version in expected.values()
        for _, counts in per_version.values()
    )
    assert len(bars) == segments
    # The same bytes from a fresh render in this process: nothing depends on the run.
    again = SiteContent(collect(with_examples=False), []).render("coverage.svg", "en").text
    assert again == svg
    assert "coverage.svg" in page(site, "zh", "coverage.html")
    assert "可微" in (site / "zh" / "coverage.svg").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- audit


def test_audit_page_is_linked_from_each_affected_operator(site: Path) -> None:
    report = audit_reference(collect(with_examples=False))
    affected = {(f.domain, f.op) for f in report.findings}
    assert affected
    for lang in LANGUAGES:
        audit = article(page(site, lang, "audit.html"))
        for domain, name in onnx_operators():
            html = article(page(site, lang, f"operators/{domain or 'ai.onnx'}/{name}.html"))
            link = re.search(r'href="\.\./\.\./audit\.html#([^"]+)"', html)
            assert bool(link) == ((domain, name) in affected), (domain, name)
            if link:
                assert f'id="{link.group(1)}"' in audit
    for finding in report.findings[:20]:
        assert finding.rule in page(site, "en", "audit.html")


# ---------------------------------------------------------------------------- search


def test_search_is_indexed_per_language(site: Path) -> None:
    bundle = site / "pagefind"
    langs = sorted(p.name.split(".")[1].split("_")[0] for p in bundle.glob("pagefind.*.pf_meta"))
    assert langs == ["en", "qzh"]  # the Chinese index, in gendoc's words (search_words.py)
    assert (bundle / "words-qzh.json").is_file()
    names = json.loads((site / "assets" / "operator-names.json").read_text(encoding="utf-8"))
    assert names["reshape"] == ["operators/ai.onnx/Reshape.html"]
    terms = json.loads((site / "assets" / "search-terms.json").read_text(encoding="utf-8"))
    assert terms["zh"]["卷积"] == ["convolution"]
    assert not (site / "search").exists()
    # Material's own search and the source maps are not shipped.
    assert not (site / "assets" / "javascripts" / "lunr").exists()
    assert not (site / "assets" / "javascripts" / "workers").exists()
    assert not list(site.rglob("*.map"))
    assert list((site / "assets" / "javascripts").glob("bundle.*.min.js"))


# ---------------------------------------------------------------------------- hostile text


HOSTILE_PAGES = ["operators/com.example.hostile/Hostile.html", "audit.html", "coverage.html"]


def hostile_pages(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*.html") if "assets" not in p.parts)


class Elements(HTMLParser):
    """Every element of a document as (tag, attributes): what a browser would make live."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k.lower(): v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(html)
    return parser.found


def test_hostile_schema_text_is_never_live_html(hostile_site: Path) -> None:
    pages = hostile_pages(hostile_site)
    assert len(pages) >= 10
    for path in pages:
        html = path.read_text(encoding="utf-8")
        for tag_name, attrs in elements(article(html)):
            assert tag_name not in ("script", "iframe", "object", "embed"), (path, tag_name)
            assert tag_name != "img" or attrs.get("src") == "coverage.svg", (path, attrs)
        for tag_name, attrs in elements(html):  # the theme's part too
            assert not [a for a in attrs if a.startswith("on")], (path, tag_name, attrs)
            for key in ("href", "src", "action"):
                value = attrs.get(key, "").strip().lower()
                assert not value.startswith("javascript:"), (path, tag_name, attrs)
        assert "<script>alert" not in html, path
        title = re.search(r"<title>(.*?)</title>", html, re.S)
        assert title and "<" not in title.group(1), path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hostile_text_is_shown_as_text(hostile_site: Path, lang: str) -> None:
    html = article(page(hostile_site, lang, "operators/com.example.hostile/Hostile.html"))
    assert "&lt;script&gt;alert('script in schema text')&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;alert('img onerror in schema text')&quot;&gt;" in html
    assert "[click me](javascript:alert('markdown link'))" in html
    assert 'class="gd-diff gd-diff-tagged" id="diff-1-2" open' in html  # version 2 tags X and Y
    names = [p.name for p in hostile_pages(hostile_site)]
    assert not any("<" in n or "/" in n for n in names)


# ------------------------------------------------------------- the reference as data


VERSION_HEADING = {"en": "## Version {}", "zh": "## 第 {} 版"}


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_site_serves_the_export_a_file_per_domain_and_their_schema(
    site: Path, exported: Path
) -> None:
    """The site's reference.json is what ``gendoc export`` writes; each domain's file holds
    that domain's schemas; every file validates (``jsonschema``) against the schema served."""
    import jsonschema

    from gendoc.model.snapshot import SCHEMA_FILE

    data = site / "reference"
    assert (data / "reference.json").read_bytes() == exported.read_bytes()
    assert (data / "snapshot.schema.json").read_bytes() == SCHEMA_FILE.read_bytes()
    validator = jsonschema.Draft202012Validator(_json(data / "snapshot.schema.json"))
    whole = _json(data / "reference.json")
    validator.validate(whole)
    per_domain = {}
    for path in sorted((data / "domains").iterdir()):
        part = _json(path)
        validator.validate(part)
        domains = {s["domain"] for s in part["schemas"]}
        assert len(domains) == 1, path
        (domain,) = domains
        assert path.name == f"{domain or 'ai.onnx'}.json"
        per_domain[domain] = [(s["name"], s["since_version"]) for s in part["schemas"]]
    expected = {}
    for (domain, name), versions in onnx_operators().items():
        expected.setdefault(domain, []).extend((name, s.since_version) for s in versions)
    assert {d: sorted(v) for d, v in per_domain.items()} == {
        d: sorted(v) for d, v in expected.items()
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_operator_page_has_its_markdown_beside_it(site: Path, lang: str) -> None:
    """The page's content without the site around it: every version, its tags and names."""
    for (domain, name), versions in onnx_operators().items():
        path = f"operators/{domain or 'ai.onnx'}/{name}"
        text = page(site, lang, f"{path}.md")
        html = page(site, lang, f"{path}.html")
        assert text.startswith(f"# {name}\n"), path
        assert "md-header" not in text and "<script" not in text, path
        for schema in versions:
            assert VERSION_HEADING[lang].format(schema.since_version) in text, (path, schema)
            if not schema.deprecated:
                for param in (*schema.inputs, *schema.outputs):
                    assert f"<code>{escape(param.name)}</code>" in text, (path, param.name)
        button = f'data-gd-markdown="{name}.md"'
        assert button in html and f'<a href="{name}.md" type="text/markdown">' in html, path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_llms_txt_links_every_operator_markdown_in_the_llmstxt_layout(
    site: Path, lang: str
) -> None:
    """A title, a summary as a quote, then lists of links (llmstxt.org); each link names a
    file of the site; llms-full.txt holds every operator's Markdown."""
    text = page(site, lang, "llms.txt")
    lines = text.splitlines()
    assert lines[0].startswith("# ") and lines[1] == "" and lines[2].startswith("> ")
    links = re.findall(r"^- \[[^\]]+\]\(([^)]+)\)", text, re.M)
    prefix = "" if lang == "en" else f"{lang}/"
    operators = {
        f"{SITE_URL}{prefix}operators/{domain or 'ai.onnx'}/{name}.md"
        for domain, name in onnx_operators()
    }
    assert operators <= set(links)
    for link in links:
        assert link.startswith(SITE_URL), link
        assert (site / link.removeprefix(SITE_URL)).is_file(), link
    assert f"{SITE_URL}reference/reference.json" in links
    full = page(site, lang, "llms-full.txt")
    for domain, name in onnx_operators():
        assert page(site, lang, f"operators/{domain or 'ai.onnx'}/{name}.md") in full, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_links_the_reference_as_data(site: Path, lang: str) -> None:
    html = article(page(site, lang, "index.html"))
    up = "" if lang == "en" else "../"
    for target in ("reference/reference.json", "reference/snapshot.schema.json"):
        assert f'href="{up}{target}"' in html, target
    for target in ("llms.txt", "llms-full.txt"):
        assert f'href="{target}"' in html, target
    assert f'href="{up}reference/domains/ai.onnx.json"' in html


def test_hostile_names_give_safe_data_files_and_inert_markdown(hostile_site: Path) -> None:
    names = [p.name for p in (hostile_site / "reference" / "domains").iterdir()]
    assert len(names) == len(HOSTILE_DOMAINS)
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+\.json", n) for n in names), names
    for lang in LANGUAGES:
        text = page(hostile_site, lang, "operators/com.example.hostile/Hostile.md")
        assert "&lt;script&gt;alert('script in schema text')&lt;/script&gt;" in text
        assert "<script" not in text and "<img" not in text
