"""The files published beside the site's pages, made without a site build (one small domain)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gendoc.runtime.operator_support import runtime_support
from gendoc.site.content import site_content
from gendoc.site.paths import markdown_url
from gendoc.site.published import LLMS, Published
from gendoc.storage.kept_files import LISTING

DOMAIN = "ai.onnx.preview.training"  # a handful of operators, in every onnx gendoc supports


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(folder))
    return folder


def _published(site_url: str = "") -> Published:
    return Published(site_content((), (DOMAIN,), None), site_url, key="k")


def test_markdown_sits_beside_its_page_in_both_url_layouts() -> None:
    assert markdown_url("operators/ai.onnx/Reshape.html") == "operators/ai.onnx/Reshape.md"
    assert markdown_url("operators/ai.onnx/Reshape/") == "operators/ai.onnx/Reshape/index.md"


def test_a_rebuild_writes_what_the_build_wrote_without_making_it(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files a build publishes are kept as links to themselves; the next build with the
    same content writes the same bytes without rendering them, though its replacing the
    old site marked the old files (and so the kept ones) as not written yet."""
    first = tmp_path / "first"
    _published().write_language(first, "en", "")
    made = _published().language_files("en", "")
    written = {p.relative_to(first).as_posix(): p for p in first.rglob("*") if p.is_file()}
    assert {name: path.read_text(encoding="utf-8") for name, path in written.items()} == made
    for path in written.values():
        os.utime(path, ns=(0, 0))  # as gendoc.site.replaced_site marks the site it replaces
    monkeypatch.setattr(Published, "operator_markdown", None)  # rendering would fail
    _published().write_language(first, "en", "")
    assert {name: path.read_text(encoding="utf-8") for name, path in written.items()} == made
    assert all(path.stat().st_mtime_ns > 0 for path in written.values())


def test_a_kept_entry_naming_other_files_is_made_again(cache: Path, tmp_path: Path) -> None:
    """A damaged or foreign cache entry cannot choose where the site's files are written,
    nor what they hold."""
    _published().write_language(tmp_path / "first", "en", "")
    made = _published().language_files("en", "")
    (entry,) = cache.glob("published-markdown-en-*")
    listing = json.loads((entry / LISTING).read_text())
    planted = {**listing, "../outside.txt": listing[LLMS]}  # the site's parent
    (entry.parent / "outside.txt").write_text("x")  # where the entry's listing points
    (entry / LISTING).write_text(json.dumps(planted))
    site = tmp_path / "site"
    _published().write_language(site, "en", "")
    written = {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}
    assert {name: path.read_text() for name, path in written.items()} == made
    assert not (tmp_path / "outside.txt").exists()


def test_a_kept_file_changed_in_place_is_made_again(cache: Path, tmp_path: Path) -> None:
    """A published file is its kept copy: one changed in place (here, in the site) no longer
    matches its entry's listing, and the next build writes the file anew."""
    first = tmp_path / "first"
    _published().write_language(first, "en", "")
    made = _published().language_files("en", "")
    with (first / LLMS).open("a", encoding="utf-8") as changed:
        changed.write("planted\n")
    second = tmp_path / "second"
    _published().write_language(second, "en", "")
    assert (second / LLMS).read_text(encoding="utf-8") == made[LLMS]
    assert (second / LLMS).stat().st_ino != (first / LLMS).stat().st_ino


def test_llms_links_are_relative_without_a_site_url(cache: Path) -> None:
    files = _published().language_files("zh", "zh/")
    index = files[LLMS]
    assert "](operators/" in index and "](../reference/reference.json)" in index
    absolute = _published("https://example.org/docs/").language_files("zh", "zh/")[LLMS]
    assert "](https://example.org/docs/zh/operators/" in absolute
    assert "](https://example.org/docs/reference/reference.json)" in absolute


def test_the_published_data_holds_the_runtime_support(cache: Path) -> None:
    """The site publishes what ``gendoc export`` writes: with where each version runs."""
    published = _published()
    data = json.loads(published.data()["reference.json"])
    sources, answers = runtime_support(published.content.reference)
    assert data["runtime_sources"]["onnxruntime"] == sources.onnxruntime
    assert data["runtime_sources"]["scoreboard_commit"] == sources.scoreboard_commit
    assert data["schemas"]
    for entry in data["schemas"]:
        found = answers[entry["domain"], entry["name"], entry["since_version"]]
        assert entry["runtime_support"]["onnxruntime"]["status"] == found.onnxruntime.status
        assert entry["runtime_support"]["trains"] == found.trains
        counts = {
            k: [v["passed"], v["failed"], v["skipped"]]
            for k, v in entry["runtime_support"]["tests"].items()
        }
        assert counts == {k: [t.passed, t.failed, t.skipped] for k, t in found.tests.items()}
