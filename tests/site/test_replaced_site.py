"""A rebuild writes over the site it replaces, and leaves what mkdocs' cleaning would have.

mkdocs deletes the site folder's entries (but the hidden ones) before a build; the plugin
sets them aside, puts them back once mkdocs has cleaned, lets the build write over them
and deletes what it did not write (gendoc/site/replaced_site.py). Whatever the build,
the site afterwards must be the one a build into an empty folder writes, hidden entries
kept as mkdocs keeps them, and nothing of the old site left beside it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gendoc.site import replaced_site
from gendoc.site.search_index import Pages
from tests.site.test_search_index import fragments
from tests.site.test_site_build import ROOT, every_file, hostile_project, mkdocs_build


def old_site(site: Path) -> None:
    """What a site folder may hold that the build does not write: a page of an operator
    gone from onnx, a folder of them, a file at the top, a hidden folder."""
    (site / "operators" / "gone").mkdir(parents=True)
    (site / "operators" / "gone" / "Gone.html").write_text("<p>gone</p>", encoding="utf-8")
    (site / "zh").mkdir(exist_ok=True)
    (site / "zh" / "Stale.html").write_text(
        '<html lang="zh"><body><div data-pagefind-body><h1>陈旧页面</h1></div></body></html>',
        encoding="utf-8",
    )
    (site / "notes.txt").write_text("old", encoding="utf-8")
    (site / ".kept").mkdir()
    (site / ".kept" / "file").write_text("hidden", encoding="utf-8")


def test_set_aside_put_back_and_remove_what_was_not_written(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    old_site(site)
    (site / "index.html").write_text("old page", encoding="utf-8")
    inode = (site / "index.html").stat().st_ino

    aside = replaced_site.set_aside(site)
    assert aside is not None and aside.parent == tmp_path and aside.name.startswith(".site-")
    assert sorted(os.listdir(site)) == [".kept"]  # what mkdocs' cleaning would delete is gone

    replaced_site.put_back(aside, site)
    assert not aside.exists()
    (site / "index.html").write_text("new page", encoding="utf-8")  # the build writes over it
    replaced_site.remove_unwritten_pages(site, Pages("zh", "zh"))
    assert not (site / "zh" / "Stale.html").exists()  # before Pagefind reads the language
    assert (site / "notes.txt").exists()  # the rest waits for the build's end
    replaced_site.remove_unwritten(site)

    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == [
        ".kept",
        ".kept/file",
        "index.html",
    ]
    assert (site / "index.html").stat().st_ino == inode  # written over, not made anew
    assert (site / "index.html").read_text(encoding="utf-8") == "new page"


def test_nothing_to_set_aside(tmp_path: Path) -> None:
    assert replaced_site.set_aside(tmp_path / "missing") is None
    (tmp_path / "empty" / ".hidden").mkdir(parents=True)
    assert replaced_site.set_aside(tmp_path / "empty") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


def test_a_rebuild_over_an_old_site_is_the_site_a_new_build_writes(tmp_path: Path) -> None:
    """Pages are written over in place; what the build does not write is gone, from the
    folder and from the search index; the hidden folder stays; nothing is left beside."""
    config = hostile_project(tmp_path)
    fresh, site = tmp_path / "fresh", tmp_path / "out"
    assert mkdocs_build(config, fresh, tmp_path / "cache").returncode == 0
    done = mkdocs_build(config, site, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    home = (site / "index.html").stat().st_ino
    old_site(site)

    done = mkdocs_build(config, site, tmp_path / "cache")

    assert done.returncode == 0, done.stderr
    assert (site / "index.html").stat().st_ino == home
    assert (site / ".kept" / "file").read_text(encoding="utf-8") == "hidden"
    written = every_file(site)
    assert written.pop(".kept/file") == b"hidden"
    assert written == every_file(fresh)
    assert "/zh/Stale.html" not in fragments(site)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_dirty_build_keeps_what_it_does_not_write(tmp_path: Path) -> None:
    """``--dirty`` keeps the old files on purpose: none of them is deleted."""
    config = hostile_project(tmp_path)
    site = tmp_path / "out"
    assert mkdocs_build(config, site, tmp_path / "cache").returncode == 0
    old_site(site)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--dirty", "-f", str(config), "-d", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "GENDOC_CACHE_DIR": str(tmp_path / "c")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert (site / "operators" / "gone" / "Gone.html").exists()
    assert (site / "notes.txt").read_text(encoding="utf-8") == "old"


def test_a_failed_rebuild_leaves_nothing_of_the_old_site(tmp_path: Path) -> None:
    """A rebuild that fails leaves the old files mkdocs would have deleted deleted, and no
    folder beside the site."""
    config = hostile_project(tmp_path)
    site = tmp_path / "out"
    assert mkdocs_build(config, site, tmp_path / "cache").returncode == 0
    old_site(site)
    page = tmp_path / "docs" / "zh" / "index.md"
    page.write_text("# 首页\n\n[断开](missing.md)\n", encoding="utf-8")

    done = mkdocs_build(config, site, tmp_path / "cache")

    assert done.returncode != 0
    assert not (site / "operators" / "gone").exists()
    assert not (site / "notes.txt").exists()
    assert (site / ".kept" / "file").exists()
    assert not any(p.stat().st_mtime_ns == 0 for p in site.rglob("*") if p.is_file())
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
