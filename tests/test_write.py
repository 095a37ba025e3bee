"""The writer is atomic: an interrupted run leaves old files whole and no debris."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gendoc import write
from gendoc.write import write_documents


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
