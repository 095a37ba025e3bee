"""The search index of a small two-language site: what Pagefind indexes, and the kept bundle.

Pagefind runs for real here, over pages shaped like the theme's: navigation
around an ``<article>`` whose text is marked ``data-pagefind-body``. The
index is read back from its fragments (one per page, gzip'd JSON).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("pagefind")

from gendoc.errors import GendocError
from gendoc.site import search_index
from gendoc.site.search_bundle_cache import MANIFEST
from gendoc.site.search_index import (
    BUNDLE,
    ENTRY,
    UNSEARCHED,
    Pages,
    index_pages,
    marked_text,
    merge_bundles,
    parts_folder,
    without_unsearched,
)

PAGES = {
    "index.html": ("en", "Home", "Welcome to the reference."),
    "operators/Add.html": ("en", "Add", "Elementwise sum of two tensors."),
    "zh/index.html": ("zh", "首页", "欢迎来到参考手册。"),
    "zh/operators/Add.html": ("zh", "Add", "两个张量逐元素相加。"),
}

# The URL Pagefind gives each page by default: a folder's "index.html" left out.
URLS = ["/", "/operators/Add.html", "/zh/", "/zh/operators/Add.html"]


def html(lang: str, title: str, text: str, marked: bool) -> str:
    mark = " data-pagefind-body" if marked else ""
    return (
        f'<!doctype html><html lang="{lang}"><head><title>{title} - Site</title></head><body>'
        "<header><nav><a href='index.html'>Home</a></nav></header>"
        '<div class="md-sidebar">Sidebar on every page</div>'
        f'<main><article class="md-content__inner"><div{mark}><h1>{title}</h1><p>{text}</p>'
        f'<details class="gd-example"><summary>Example</summary>Excluded text</details></div>'
        "</article></main><footer>Footer everywhere</footer></body></html>"
    )


def make_site(folder: Path, marked: bool = True) -> Path:
    for path, (lang, title, text) in PAGES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(html(lang, title, text, marked), encoding="utf-8")
    (folder / "404.html").write_text(
        '<!doctype html><html lang="en"><head><title>404</title></head>'
        "<body><h1>404 - Not found</h1></body></html>",
        encoding="utf-8",
    )
    return folder


def index_site(site: Path, cache: Path | None) -> None:
    """The whole site indexed in one part, as a site without language folders is; joining
    the part removes its bundle, so the folder of parts is left empty."""
    parts = parts_folder(site)
    merge_bundles(site, [index_pages(site, cache, Pages("site"), parts)])
    parts.rmdir()


def fragments(site: Path) -> dict[str, dict]:
    """The indexed pages by URL: their text, title and language."""
    pages = {}
    for path in (site / BUNDLE / "fragment").iterdir():
        data = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        pages[data["url"]] = {
            "lang": path.name.split("_")[0],
            "title": data["meta"]["title"],
            "content": data["content"],
        }
    return pages


def every_file(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def archived(kept: Path) -> dict[str, bytes]:
    """The files of a kept bundle (one zip archive), its manifest among them."""
    with zipfile.ZipFile(kept) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rearchive(kept: Path, files: dict[str, bytes]) -> None:
    """Replace the kept bundle with an archive of ``files``, as another program would."""
    with zipfile.ZipFile(kept, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)


def test_only_the_marked_text_of_each_page_is_indexed_under_the_page_url(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    index_site(site, None)
    pages = fragments(site)
    assert sorted(pages) == URLS
    assert pages["/operators/Add.html"] == {
        "lang": "en",
        "title": "Add",
        "content": "Add. Elementwise sum of two tensors.",
    }
    # The Chinese pages are indexed under the code Pagefind cuts nothing of, in gendoc's words.
    assert pages["/zh/"]["lang"] == "qzh"
    assert pages["/zh/"]["title"] == "首页"
    added = pages["/zh/operators/Add.html"]["content"]
    assert added.replace(" ", "") == "Add.两个张量逐元素相加。"
    assert {"张量", "逐元素"} <= set(added.split())  # terms of the glossary, kept whole
    entry = json.loads((site / BUNDLE / ENTRY).read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["en", "qzh"]
    words = json.loads((site / BUNDLE / "words-qzh.json").read_text(encoding="utf-8"))
    assert {"张量", "逐元素"} <= set(words) and all(len(w) > 1 for w in words)
    assert not list((site / BUNDLE).glob("pagefind-ui.*"))
    assert (site / "zh" / "operators" / "Add.html").read_text(encoding="utf-8") == html(
        "zh", "Add", "两个张量逐元素相加。", True
    )  # the site's own page is untouched


def test_a_site_indexed_by_language_gets_the_bundle_of_one_run_over_it(tmp_path: Path) -> None:
    """The site's build indexes each language folder on its own (the Chinese one in the
    process that built it) and joins the parts: the same bytes as Pagefind's one run over
    every page, entry and vocabulary included, and no part left beside the site."""
    whole = make_site(tmp_path / "whole")
    index_site(whole, None)

    site = make_site(tmp_path / "site")
    english = Pages("en", skip=frozenset({"zh"}))
    assert [p.relative_to(site).as_posix() for p in english.paths(site)] == [
        "404.html",
        "index.html",
        "operators/Add.html",
    ]
    parts = parts_folder(site)
    assert parts.parent == tmp_path  # beside the site, not in it
    bundles = [
        index_pages(site, None, english, parts),
        index_pages(site, None, Pages("zh", "zh"), parts),
    ]
    assert bundles == [parts / "en", parts / "zh"]
    merge_bundles(site, bundles)

    assert every_file(site / BUNDLE) == every_file(whole / BUNDLE)
    assert list(parts.iterdir()) == []


def test_a_chinese_page_is_given_to_pagefind_as_its_marked_text_alone() -> None:
    """The rewritten copy of a page keeps the marked element, in an empty page of the
    index language; a page whose marking is not one element inside its article is whole."""
    page = html("zh", "Add", "两个张量逐元素相加。", True).encode()
    kept = marked_text(page, b"qzh")
    assert kept == (
        b'<!doctype html>\n<html lang="qzh"><head><meta charset="utf-8"></head><body>'
        + "<div data-pagefind-body><h1>Add</h1><p>两个张量逐元素相加。</p>".encode()
        + b'<details class="gd-example"><summary>Example</summary>Excluded text</details></div>'
        + b"</body></html>\n"
    )
    assert marked_text(html("zh", "Add", "x", False).encode(), b"qzh") is None
    twice = page.replace(b"<footer>", b"<footer data-pagefind-body>")
    assert marked_text(twice, b"qzh") is None
    around = page.replace(b"<main>", b"<main data-pagefind-body>").replace(
        b"<div data-pagefind-body>", b"<div>"
    )
    assert marked_text(around, b"qzh") is None  # the article inside the marked element


def test_the_marked_text_alone_gives_the_index_the_whole_page_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind writes the same index from the Chinese pages cut down to their marked
    text; only the words of the text outside it (the frame's) leave the query vocabulary."""
    site = make_site(tmp_path / "site")
    for path in ("zh/index.html", "zh/operators/Add.html"):  # a frame in Chinese
        page = site / path
        text = page.read_text(encoding="utf-8").replace("Sidebar on every page", "跳转至详情")
        page.write_text(text, encoding="utf-8")
    search_index.run_pagefind(site, Pages("zh", "zh"), True, tmp_path / "cut")
    monkeypatch.setattr(search_index, "marked_text", lambda html, lang: None)
    search_index.run_pagefind(site, Pages("zh", "zh"), True, tmp_path / "whole")
    cut, whole = every_file(tmp_path / "cut"), every_file(tmp_path / "whole")
    words = {
        name: json.loads(files.pop("words-qzh.json"))
        for name, files in [("cut", cut), ("whole", whole)]
    }
    assert cut == whole
    assert {"跳转", "详情"} <= set(words["whole"])
    assert set(words["cut"]) == set(words["whole"]) - {"跳转", "详情"}


def test_what_the_templates_mark_as_unsearched_is_cut_from_pagefind_s_copy() -> None:
    """Marked parts go, nested ones with their outer part; marks that do not pair up leave
    the page whole (Pagefind's own exclusions still apply to it)."""
    opening, closing = (mark.decode() for mark in UNSEARCHED)
    page = f"<p>a</p>{opening}<div>b{opening}<p>c</p>{closing}d</div>{closing}<p>e</p>"
    assert without_unsearched(page.encode()) == b"<p>a</p><p>e</p>"
    two = f"1{opening}x{closing}2{opening}y{closing}3"
    assert without_unsearched(two.encode()) == b"123"
    for unpaired in (f"1{opening}x", f"1{closing}x", f"{opening}{opening}x{closing}"):
        assert without_unsearched(unpaired.encode()) == unpaired.encode()
    plain = b"<p>nothing marked</p>"
    assert without_unsearched(plain) is plain


def test_cutting_the_unsearched_parts_changes_nothing_in_the_index(tmp_path: Path) -> None:
    """The parts marked are those Pagefind leaves out (here the example, excluded by
    PAGEFIND_ARGS): the bundle is the same bytes with or without the marks, in both
    languages, while the page Pagefind reads is cut."""
    plain = make_site(tmp_path / "plain")
    index_site(plain, None)
    marked = make_site(tmp_path / "marked")
    opening, closing = (mark.decode() for mark in UNSEARCHED)
    for page in marked.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        text = text.replace(
            '<details class="gd-example">', f'{opening}<details class="gd-example">'
        )
        page.write_text(text.replace("</details>", f"</details>{closing}"), encoding="utf-8")
    read: list[bytes] = []
    run = subprocess.run

    def reading(command, **kwargs):  # what Pagefind is given to read
        source = Path(command[command.index("--site") + 1])
        read.extend(p.read_bytes() for p in sorted(source.rglob("*.html")))
        return run(command, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_index.subprocess, "run", reading)
        index_site(marked, None)
    assert every_file(marked / BUNDLE) == every_file(plain / BUNDLE)
    assert len(read) == 5 and not any(b"Excluded text" in page for page in read)


def test_a_site_marking_no_text_is_indexed_whole(tmp_path: Path) -> None:
    """Pagefind's own rule without the marking: every page's <body>, the 404 page's too."""
    site = make_site(tmp_path / "site", marked=False)
    index_site(site, None)
    pages = fragments(site)
    assert sorted(pages) == sorted([*URLS, "/404.html"])
    assert "Sidebar on every page" in pages["/operators/Add.html"]["content"]


def test_a_restored_index_is_the_bundle_a_run_writes_copied_into_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = make_site(tmp_path / "first")
    index_site(first, cache)
    written = every_file(first / BUNDLE)
    (kept,) = (cache / "search-index" / "site").iterdir()
    manifest = json.loads(archived(kept)[MANIFEST])
    assert archived(kept) == {**written, MANIFEST: archived(kept)[MANIFEST]}
    assert manifest == {name: hashlib.sha256(data).hexdigest() for name, data in written.items()}
    assert kept.stat().st_mode & 0o777 == 0o600

    again = make_site(tmp_path / "again")
    index_site(again, None)  # Pagefind once more, without the cache: the same bytes
    assert every_file(again / BUNDLE) == written

    restored = make_site(tmp_path / "restored")

    def no_run(*args: object) -> None:
        pytest.fail("Pagefind ran for a site the cache holds the index of")

    monkeypatch.setattr(search_index, "run_pagefind", no_run)
    index_site(restored, cache)
    assert every_file(restored / BUNDLE) == written
    for site in (first, restored):  # the sites' files are their own, not the cache's
        for path in (site / BUNDLE).rglob("*"):
            assert path.is_dir() or path.stat().st_nlink == 1, path


def test_a_site_where_links_cannot_be_made_is_indexed_from_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cross_device(source: str, target: str) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    cache = tmp_path / "cache"
    first, restored = make_site(tmp_path / "first"), make_site(tmp_path / "restored")
    index_site(first, cache)
    index_site(restored, cache)
    (kept,) = (cache / "search-index" / "site").iterdir()
    kept_files = {k: v for k, v in archived(kept).items() if k != MANIFEST}
    assert every_file(restored / BUNDLE) == kept_files == every_file(first / BUNDLE)


def test_the_kept_index_is_never_written_through_a_site(tmp_path: Path) -> None:
    """Deleting a site's bundle, or indexing the site again once its pages changed, leaves
    the kept bundle as it was."""
    cache = tmp_path / "cache"
    first, restored = make_site(tmp_path / "first"), make_site(tmp_path / "restored")
    index_site(first, cache)
    index_site(restored, cache)
    (kept,) = (cache / "search-index" / "site").iterdir()
    before = kept.read_bytes()

    shutil.rmtree(first / BUNDLE)
    for site in (first, restored):
        page = site / "operators" / "Add.html"
        page.write_text(page.read_text(encoding="utf-8").replace("sum", "total"), "utf-8")
        index_site(site, None)
        assert "total" in fragments(site)["/operators/Add.html"]["content"]
        assert kept.read_bytes() == before
    assert os.listdir(cache / "search-index" / "site") == [kept.name]


@pytest.mark.parametrize(
    "damage", ["changed", "cut short", "removed", "added", "no manifest", "outside", "not zip"]
)
def test_a_damaged_kept_index_is_indexed_again_and_replaced(tmp_path: Path, damage: str) -> None:
    """A kept bundle is restored only as it was kept: a damaged one, or one whose script was
    rewritten, would otherwise be served with every later build; a file named outside the
    bundle is never written, even with its manifest entry."""
    cache = tmp_path / "cache"
    first = make_site(tmp_path / "first")
    index_site(first, cache)
    written = every_file(first / BUNDLE)
    (kept,) = (cache / "search-index" / "site").iterdir()
    files = archived(kept)
    manifest = json.loads(files[MANIFEST])
    if damage == "changed":
        files["pagefind.js"] = b"alert('planted')"
    elif damage == "cut short":
        files["pagefind.js"] = written["pagefind.js"][:10]
    elif damage == "removed":
        del files["pagefind.js"]
    elif damage == "added":
        files["extra.js"] = b"alert('planted')"
    elif damage == "no manifest":
        del files[MANIFEST]
    elif damage == "outside":
        files["../outside.js"] = b"alert('planted')"
        manifest["../outside.js"] = hashlib.sha256(b"alert('planted')").hexdigest()
        files[MANIFEST] = json.dumps(manifest).encode()
    rearchive(kept, files)
    if damage == "not zip":
        kept.write_bytes(written["pagefind.js"])
    kept.chmod(0o600)
    restored = make_site(tmp_path / "restored")
    index_site(restored, cache)
    assert every_file(restored / BUNDLE) == written
    assert not list(tmp_path.rglob("outside.js"))
    (healed,) = (cache / "search-index" / "site").iterdir()
    assert archived(healed) == {**written, MANIFEST: archived(healed)[MANIFEST]}


@pytest.mark.parametrize("how", ["file", "folder", "owner"])
def test_a_kept_index_another_could_have_written_is_not_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """A kept bundle whose script and manifest another user rewrote (the manifest matches)
    is indexed again, and nothing is kept in a folder others can write to."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(cache))
    first = make_site(tmp_path / "first")
    index_site(first, cache)
    written = every_file(first / BUNDLE)
    (kept,) = (cache / "search-index" / "site").iterdir()
    files = archived(kept)
    manifest = json.loads(files[MANIFEST])
    manifest["pagefind.js"] = hashlib.sha256(b"alert('planted')").hexdigest()
    rearchive(kept, {**files, "pagefind.js": b"alert('planted')", MANIFEST: json.dumps(manifest)})
    if how == "file":
        kept.chmod(0o666)
    elif how == "folder":
        (cache / "search-index").chmod(0o777)
    else:
        real = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: real + 1)
    restored = make_site(tmp_path / "restored")
    index_site(restored, cache)
    assert every_file(restored / BUNDLE) == written
    if how != "file":  # a private folder is healed; another's is left as it was
        assert archived(kept)["pagefind.js"] == b"alert('planted')"


def test_a_missing_part_is_one_error_and_the_index_is_kept(tmp_path: Path) -> None:
    """A part whose bundle is not there (its process stopped before indexing), or whose
    entry is not Pagefind's, is one line naming it, not a traceback, and the site's index
    is left as it was."""
    site = make_site(tmp_path / "site")
    index_site(site, None)
    before = every_file(site / BUNDLE)
    parts = parts_folder(site)
    english = index_pages(site, None, Pages("en", skip=frozenset({"zh"})), parts)
    with pytest.raises(GendocError, match=r"^pagefind: no index of zh: "):
        merge_bundles(site, [english, parts / "zh"])
    assert every_file(site / BUNDLE) == before
    (english / ENTRY).write_text('["not", "an", "entry"]', encoding="utf-8")
    with pytest.raises(GendocError, match=r"^pagefind: the index of en lists no languages$"):
        merge_bundles(site, [english])
    assert every_file(site / BUNDLE) == before


def test_a_link_where_the_index_goes_is_replaced_not_followed(tmp_path: Path) -> None:
    """``site/pagefind`` planted as a link to a folder elsewhere: the index is written in the
    site, and nothing lands in the folder the link named."""
    outside = tmp_path / "outside"
    outside.mkdir()
    site = make_site(tmp_path / "site")
    (site / BUNDLE).symlink_to(outside, target_is_directory=True)
    index_site(site, None)
    assert list(outside.iterdir()) == []
    assert not (site / BUNDLE).is_symlink() and (site / BUNDLE / ENTRY).is_file()


def test_the_site_folder_is_never_written_through_a_link(tmp_path: Path) -> None:
    """Before mkdocs cleans the site (which keeps a link to a folder), every link in it is
    removed; a site folder that is itself a link is refused in one line."""
    from mkdocs.exceptions import PluginError

    from gendoc.site.plugin import _unlinked_site

    outside = tmp_path / "outside"
    outside.mkdir()
    site = make_site(tmp_path / "site")
    (site / "zh" / "search").symlink_to(outside, target_is_directory=True)
    (site / BUNDLE).symlink_to(outside, target_is_directory=True)
    _unlinked_site(site)
    assert not [p for p in site.rglob("*") if p.is_symlink()]
    assert (site / "zh" / "index.html").is_file()
    linked = tmp_path / "linked-site"
    linked.symlink_to(site, target_is_directory=True)
    with pytest.raises(PluginError, match=r"^gendoc: output folder .*linked-site is a symbolic"):
        _unlinked_site(linked)


def test_the_index_lists_its_pages_by_kind_for_the_ranking(tmp_path: Path) -> None:
    """Each index language's ``kinds-<code>.json`` names the operator pages by their Pagefind
    ids (their fragments' names) and no other page; the home pages are of no listed kind."""
    site = make_site(tmp_path / "site")
    (site / "opsets").mkdir()
    (site / "opsets" / "18.html").write_text(html("en", "Opset 18", "Opset text.", True), "utf-8")
    index_site(site, None)
    ids = {}
    for path in (site / BUNDLE / "fragment").iterdir():
        data = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        ids[data["url"]] = path.name.removesuffix(".pf_fragment")
    kinds = {
        path.name: json.loads(path.read_text(encoding="utf-8"))
        for path in (site / BUNDLE).glob("kinds-*.json")
    }
    assert sorted(kinds) == ["kinds-en.json", "kinds-qzh.json"]
    assert kinds["kinds-en.json"] == {
        "operator": [ids["/operators/Add.html"]],
        "opset": [ids["/opsets/18.html"]],
        "evidence": [],
    }
    assert kinds["kinds-qzh.json"] == {
        "operator": [ids["/zh/operators/Add.html"]],
        "opset": [],
        "evidence": [],
    }


def test_pagefind_runs_on_the_processors_it_is_given_and_the_build_keeps_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind is started on the processors given (a child inherits its parent's), its index
    the same as on all of them; the building process has all of its own back after."""
    mine = os.sched_getaffinity(0)
    started = subprocess.Popen
    seen: list[set[int]] = []

    def recording(*args, **kwargs):
        seen.append(os.sched_getaffinity(0))
        return started(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", recording)
    bundles = {}
    for name, cpus in (("all", None), ("one", frozenset({min(mine)}))):
        site = make_site(tmp_path / name)
        bundle = index_pages(site, None, Pages("site"), parts_folder(site), cpus)
        assert seen.pop() == set(cpus or mine)
        assert os.sched_getaffinity(0) == mine
        bundles[name] = every_file(bundle)
    assert bundles["one"] == bundles["all"]


def test_each_language_process_gets_its_share_of_the_processors(monkeypatch) -> None:
    """The first language's process and the worker split the processors between them, every
    other one each; a process alone on one processor, or with a share that would be all of
    them, keeps them all (``None``)."""
    from gendoc.site.languages import cpu_share

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 6})
    assert cpu_share(0, 2) == {0, 2, 6}
    assert cpu_share(1, 2) == {1, 3}
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})
    assert cpu_share(0, 2) is None
    assert cpu_share(1, 2) is None
