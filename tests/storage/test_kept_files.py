"""Files kept in the cache as links to the files a build wrote (gendoc.storage.kept_files)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from gendoc.storage import kept_files
from gendoc.storage.kept_files import LISTING, keep, restore, write_files

FILES = {"a/Reshape.md": '# Reshape\n\n可微 "x"\n', "llms.txt": "", "b.json": "{}\n"}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(folder))
    return folder


def texts(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in folder.rglob("*")
        if p.is_file()
    }


def kept(cache: Path, tmp_path: Path) -> Path:
    """A build's files written and kept under ``t`` and ``k``: the entry."""
    keep("t", "k", tmp_path / "first", write_files(tmp_path / "first", FILES))
    return cache / "t-k"


def test_kept_files_are_the_files_written_and_come_back_whole(cache: Path, tmp_path: Path) -> None:
    """An entry shares the files the build wrote, and replaces the entries of other keys;
    the next build gets files of its own, with the same bytes."""
    cache.mkdir(mode=0o700)
    older = [cache / "t-j", cache / "t-k.files"]  # another key, an earlier gendoc's file
    older[0].mkdir()
    older[1].write_text("{}")
    entry = kept(cache, tmp_path)
    assert not any(path.exists() for path in older)
    for name in FILES:
        assert (entry / name).stat().st_ino == (tmp_path / "first" / name).stat().st_ino
    site = tmp_path / "site"
    assert restore("t", "k", site, FILES)
    assert texts(site) == FILES
    assert all((site / name).stat().st_nlink == 1 for name in FILES)
    assert not restore("t", "other key", tmp_path / "elsewhere", FILES)
    assert not (tmp_path / "elsewhere").exists()


def test_a_rebuild_marking_the_old_files_keeps_the_entry(cache: Path, tmp_path: Path) -> None:
    """A rebuild over the old site marks its files as not written yet (their modification
    time set to the epoch, gendoc.site.replaced_site), through the links the entry's too:
    the entry still serves, and the files it gives are new ones, marked written."""
    kept(cache, tmp_path)
    for name in FILES:
        os.utime(tmp_path / "first" / name, ns=(0, 0))
    assert restore("t", "k", tmp_path / "first", FILES)
    assert texts(tmp_path / "first") == FILES
    assert all((tmp_path / "first" / name).stat().st_mtime_ns > 0 for name in FILES)


def test_writing_again_leaves_the_kept_file_alone(cache: Path, tmp_path: Path) -> None:
    """A published file is written as a new file renamed over the old: the entry that
    shares the old one keeps its text."""
    entry = kept(cache, tmp_path)
    write_files(tmp_path / "first", {**FILES, "llms.txt": "changed\n"})
    assert (entry / "llms.txt").read_text(encoding="utf-8") == ""
    assert restore("t", "k", tmp_path / "site", FILES)


def test_an_entry_that_does_not_match_is_a_miss_and_writes_nothing(
    cache: Path, tmp_path: Path
) -> None:
    """A listing of other names, a file changed in place (through the site's link), a file
    replaced by a link or writable by others, a damaged listing: each is a miss, before any
    file is written."""

    def damage_listing(entry: Path) -> None:
        names = json.loads((entry / LISTING).read_text())
        del names["b.json"]
        (entry / LISTING).write_text(json.dumps(names))

    def change_in_place(entry: Path) -> None:
        with (tmp_path / "first" / "b.json").open("r+") as changed:  # the same file
            changed.write("[]")

    def link_elsewhere(entry: Path) -> None:
        (entry / "b.json").unlink()
        (entry / "b.json").symlink_to(tmp_path / "first" / "b.json")

    def writable_by_others(entry: Path) -> None:
        (entry / "b.json").chmod(0o666)

    def cut_short(entry: Path) -> None:
        listing = (entry / LISTING).read_text()
        (entry / LISTING).write_text(listing[:10])

    for damage in (damage_listing, change_in_place, link_elsewhere, writable_by_others, cut_short):
        damage(kept(cache, tmp_path))
        site = tmp_path / "site" / damage.__name__
        assert not restore("t", "k", site, FILES), damage.__name__
        assert not site.exists()


def test_without_links_the_entry_holds_copies(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the cache is on another file system than the site, an entry holds copies."""

    def no_link(*args, **kwargs):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_link)
    entry = kept(cache, tmp_path)
    assert (entry / "llms.txt").stat().st_ino != (tmp_path / "first" / "llms.txt").stat().st_ino
    assert texts(entry) == {**FILES, LISTING: (entry / LISTING).read_text()}
    site = tmp_path / "site"
    assert restore("t", "k", site, FILES)
    assert texts(site) == FILES


def test_nothing_is_kept_without_a_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENDOC_CACHE_DIR", "")
    keep("t", "k", tmp_path / "first", write_files(tmp_path / "first", FILES))
    assert not restore("t", "k", tmp_path / "site", FILES)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first"]


@pytest.fixture
def umask_027():
    """The process's umask 027 (and the module's reading of it) for the test."""
    before = os.umask(0o027)
    kept_files._file_mode.cache_clear()
    yield
    os.umask(before)
    kept_files._file_mode.cache_clear()


def test_an_entry_serves_under_a_umask_that_lets_the_group_write(
    cache: Path, tmp_path: Path
) -> None:
    """The entry is made private whatever the umask: with 002, its folders, its listing and
    the files it would share would be writable by the group, and the cache reads nothing
    such. Files others may write to are copied, not shared."""
    before = os.umask(0o002)
    kept_files._file_mode.cache_clear()
    try:
        entry = kept(cache, tmp_path)
    finally:
        os.umask(before)
        kept_files._file_mode.cache_clear()
    assert (tmp_path / "first" / "b.json").stat().st_mode & 0o777 == 0o664
    for path in (entry / "a", entry / LISTING, entry / "b.json"):
        assert path.stat().st_mode & 0o077 == 0, path
    assert (entry / "b.json").stat().st_ino != (tmp_path / "first" / "b.json").stat().st_ino
    assert restore("t", "k", tmp_path / "site", FILES)


def test_written_files_follow_the_umask(tmp_path: Path, umask_027: None) -> None:
    """Files are written as others are under the process's umask, and only they are left."""
    write_files(tmp_path, FILES)
    assert {(tmp_path / name).stat().st_mode & 0o777 for name in FILES} == {0o640}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b.json", "llms.txt"]
