"""The writer is atomic: an interrupted run leaves old files whole and no debris."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from gendoc.errors import GendocError
from gendoc.storage import lock, write
from gendoc.storage.write import write_documents
from tests.helpers import run_gendoc


def test_writes_new_and_changed_files_only(tmp_path: Path) -> None:
    assert write_documents(tmp_path, {"a.md": "one\n", "b.md": "two\n"}) == [
        tmp_path / "a.md",
        tmp_path / "b.md",
    ]
    assert write_documents(tmp_path, {"a.md": "one\n", "b.md": "три\n"}) == [tmp_path / "b.md"]
    assert (tmp_path / "b.md").read_bytes() == "три\n".encode()


def test_interrupted_write_keeps_old_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_documents(tmp_path, {"a.md": "old a\n", "b.md": "old b\n"})
    calls = []

    def interrupted_fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(write.os, "fsync", interrupted_fsync)
    with pytest.raises(KeyboardInterrupt):
        write_documents(tmp_path, {"a.md": "new a\n", "b.md": "new b\n"})
    assert (tmp_path / "a.md").read_text() == "old a\n"
    assert (tmp_path / "b.md").read_text() == "old b\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.md"]


def test_failure_while_staging_is_a_write_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(write.os, "fsync", full_disk)
    with pytest.raises(write.WriteError, match="No space left on device"):
        write_documents(tmp_path, {"a.md": "x\n"})
    assert list(tmp_path.iterdir()) == []


def test_new_files_are_readable_by_others(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_documents(tmp_path, {"a.md": "x\n"})
    finally:
        os.umask(old)
    assert (tmp_path / "a.md").stat().st_mode & 0o777 == 0o644


# --- special files, leftovers of killed runs, the folder lock -------------------------------


def test_special_files_and_links_are_refused_without_being_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "real.md").write_text("real\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")
    (tmp_path / "dir.md").mkdir()
    cases = {
        "pipe.md": "is a named pipe",
        "link.md": "is a symbolic link",
        "dir.md": "is a folder",
    }
    for name, kind in cases.items():
        with pytest.raises(write.WriteError, match=kind):
            write_documents(tmp_path, {name: "new\n"})
        with pytest.raises(write.WriteError, match=kind):
            write.changed_documents(tmp_path, {name: "new\n"})
    assert (tmp_path / "real.md").read_text() == "real\n"
    assert (tmp_path / "link.md").is_symlink()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe.md").st_mode)
    with pytest.raises(write.WriteError, match="/dev/null is a character device"):
        write_documents(Path("/dev"), {"null": "x\n"})


def _leave_interrupted_build(folder: Path) -> None:
    """What a build killed after its journal and first rename leaves: a mixed set."""
    write_documents(folder, {"a.md": "old a\n", "b.md": "old b\n"})
    (folder / "a.md").write_text("new a\n")
    (folder / ".b.md.k1ll3d_x.tmp").write_text("new b\n")
    (folder / ".a.md.stale123.tmp").write_text("half of a")
    (folder / write.JOURNAL).write_text(
        '[[".a.md.gone_123.tmp", "a.md"], [".b.md.k1ll3d_x.tmp", "b.md"]]'
    )


def test_check_reports_leftovers_of_a_killed_build(tmp_path: Path) -> None:
    _leave_interrupted_build(tmp_path)
    with pytest.raises(write.InterruptedBuild, match=r"interrupted .* and 2 more") as caught:
        write.changed_documents(tmp_path, {"a.md": "new a\n", "b.md": "new b\n"})
    assert caught.value.exit_code == 1


def test_next_build_finishes_the_renames_and_removes_stale_temp_files(tmp_path: Path) -> None:
    _leave_interrupted_build(tmp_path)
    (tmp_path / ".other.tmp").write_text("not ours\n")
    assert write_documents(tmp_path, {"a.md": "new a\n", "b.md": "new b\n"}) == []
    assert (tmp_path / "b.md").read_text() == "new b\n"  # rolled forward, then found current
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.tmp", "a.md", "b.md"]
    assert write.changed_documents(tmp_path, {"a.md": "new a\n", "b.md": "new b\n"}) == {}


def test_a_journal_naming_files_elsewhere_is_refused(tmp_path: Path) -> None:
    (tmp_path / write.JOURNAL).write_text('[["../outside.tmp", "a.md"]]')
    with pytest.raises(write.WriteError, match="not a temporary file of gendoc's"):
        write_documents(tmp_path, {"a.md": "x\n"})
    (tmp_path / write.JOURNAL).write_text("[[1, 2]")
    with pytest.raises(write.WriteError, match="is damaged"):
        write_documents(tmp_path, {"a.md": "x\n"})


def test_journal_is_gone_after_a_complete_write(tmp_path: Path) -> None:
    written = write_documents(tmp_path, {"a.md": "1\n", "b.md": "2\n", "c.md": "3\n"})
    assert len(written) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.md", "c.md"]


def test_a_busy_folder_times_out_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(lock.TIMEOUT_VARIABLE, "0.2")
    write_documents(tmp_path, {"a.md": "old\n"})
    with lock.folder_lock(tmp_path), pytest.raises(lock.LockTimeout, match="still in use") as c:
        write_documents(tmp_path, {"a.md": "new\n"})
    assert "\n" not in str(c.value)
    assert (tmp_path / "a.md").read_text() == "old\n"
    with lock.folder_lock(tmp_path, shared=True):
        assert write.changed_documents(tmp_path, {"a.md": "old\n"}) == {}  # readers share
    monkeypatch.setenv(lock.TIMEOUT_VARIABLE, "soon")
    with pytest.raises(GendocError, match="must be a number of seconds"):
        write_documents(tmp_path, {"a.md": "new\n"})


@pytest.mark.parametrize(
    "entries",
    [
        [["notes.txt", "Operators.md"]],  # moves a file of the user's onto a document
        [[".Operators.md.abc_123.tmp", "README-keep.md"]],  # replaces a file gendoc never wrote
        [[".README-keep.md.abc_123.tmp", "Operators.md"]],  # another file's temporary file
        [[".Operators.md.abc_123.tmp", "Operators.md"], ["notes.txt", "Changelog.md"]],
        [[".Operators.md.abc_123.tmp", "."]],
        [["..", "Operators.md"]],
    ],
)
def test_a_journal_may_only_finish_gendocs_own_renames(tmp_path: Path, entries: list) -> None:
    """A crafted journal is refused whole, before any file is touched."""
    files = {
        "README-keep.md": "keep\n",
        "notes.txt": "notes\n",
        "Operators.md": "old operators\n",
        "Changelog.md": "old changelog\n",
        ".Operators.md.abc_123.tmp": "new operators\n",
        ".README-keep.md.abc_123.tmp": "overwritten\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / write.JOURNAL).write_text(json.dumps(entries))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    documents = {"Operators.md": "new\n", "Changelog.md": "new\n"}
    with pytest.raises(write.WriteError) as refused:
        write_documents(tmp_path, documents)
    assert "\n" not in str(refused.value) and refused.value.exit_code == 2
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_journal_of_gendocs_own_renames_is_finished(tmp_path: Path) -> None:
    (tmp_path / ".Operators.md.abc_123.tmp").write_text("new operators\n")
    (tmp_path / "Operators.md").write_text("old\n")
    (tmp_path / write.JOURNAL).write_text('[[".Operators.md.abc_123.tmp", "Operators.md"]]')
    assert write_documents(tmp_path, {"Operators.md": "new operators\n"}) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Operators.md"]


def test_build_refuses_a_crafted_journal_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / write.JOURNAL).write_text('[["notes.txt", "Operators.md"]]')
    result = run_gendoc("build", "--out", str(tmp_path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Operators.md" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [write.JOURNAL, "notes.txt"]


@pytest.mark.parametrize("link", ["docs/zh", "docs"])
def test_an_output_folder_reached_through_a_link_is_refused_in_one_line(
    tmp_path: Path, link: str
) -> None:
    """A checkout whose ``docs/zh`` (or ``docs``) is a link to a folder outside it."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (outside / "zh").mkdir(parents=True)
    (repo / link).parent.mkdir(parents=True)
    (repo / link).symlink_to(outside / "zh" if link == "docs/zh" else outside)
    result = run_gendoc("export", "-o", "docs/zh/snapshot.json", cwd=repo)
    assert result.returncode == 2
    assert result.stderr == (
        f"gendoc: error: output folder docs/zh: {link} is a symbolic link; gendoc writes into "
        "real folders only (remove the link, or give the folder it points to)\n"
    )
    assert [p for p in outside.rglob("*") if p.is_file()] == []


def test_an_absolute_output_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(GendocError, match="link is a symbolic link"):
        write_documents(tmp_path / "link", {"Operators.md": "text\n"})
    assert list((tmp_path / "real").iterdir()) == []
    # A link above it, outside the working folder, is the user's own path: followed.
    assert write_documents(tmp_path / "link" / "docs", {"Operators.md": "text\n"}) == [
        tmp_path / "link" / "docs" / "Operators.md"
    ]


def test_remove_entry_and_remove_links_follow_no_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept\n")
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "zh").symlink_to(outside)
    (site / "assets" / "x.js").symlink_to(outside / "keep.txt")
    (site / "page.html").write_text("page\n")
    write.remove_links(site)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == [
        "assets",
        "page.html",
    ]
    (site / "pagefind").symlink_to(outside)
    write.remove_entry(site / "pagefind")
    write.remove_entry(site / "assets")
    write.remove_entry(site / "missing")
    assert sorted(p.name for p in site.iterdir()) == ["page.html"]
    assert (outside / "keep.txt").read_text() == "kept\n"


def test_a_link_earlier_in_the_path_as_written_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``docs/../escape`` goes through ``docs``: a link there leads out of the checkout."""
    repo, outside = tmp_path / "repo", tmp_path / "outside" / "inner"
    outside.mkdir(parents=True)
    repo.mkdir()
    (repo / "docs").symlink_to(outside)
    monkeypatch.chdir(repo)
    for out in (Path("docs/../escape"), repo / "docs" / ".." / "escape"):
        with pytest.raises(GendocError, match=r": docs is a symbolic link;"):
            write_documents(out, {"Operators.md": "text\n"})
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["inner"]
