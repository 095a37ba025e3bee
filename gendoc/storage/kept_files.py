"""Files a build wrote, kept in the cache folder for the next build as links to themselves.

A site publishes some 20 MB of files made from the reference alone: its data and its
Markdown (:mod:`gendoc.site.published`). Kept as copies, they cost a full build a second
write of every byte, and a rebuild a read and a write. So an entry is a folder of hard
links to the files as the build wrote them (copies only where the cache is on another file
system), and the next build with the same key links them into its site (:func:`restore`).

A link shares the file, so both sides keep it unchanged: gendoc writes these files as new
files renamed over the old (:func:`write_files`), never in place, and an entry lists the
size and modification time of each of its files, so that one changed in place by anything
else makes the entry a miss, as a damaged one is. Like every entry of the cache
(:mod:`gendoc.storage.cache`), an entry is used only where the user owns it, its files and
its folders, and nobody else can write to them; its files must be regular files, not links
to elsewhere; and it must list exactly the names the build would write, so that it can
never choose where a file goes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

import msgspec

from gendoc.storage.cache import (
    DECODE_ERRORS,
    cache_dir,
    is_trusted_folder,
    private_folder,
    read_entry,
)

LISTING = ".listing.json"
"""In an entry's folder: each file's name, size and modification time in nanoseconds."""

_Listing = dict[str, tuple[int, int]]


@cache
def _file_mode() -> int:
    """The mode of a new file under the process's umask (read once: setting it is the only
    way to read it)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Write each text (by path under ``folder``, as UTF-8) as a new file that replaces the
    old one: a file that an entry shares is never changed."""
    mode = _file_mode()
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(text.encode("utf-8"))
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def keep(name: str, key: str, folder: Path, names: Collection[str]) -> None:
    """Keep the files ``names`` of ``folder`` under ``name`` and ``key``, and drop the
    entries of ``name`` under other keys; a failure only loses the entry."""
    cache = cache_dir()
    if cache is None:
        return
    with contextlib.suppress(OSError):
        private_folder(cache)
        made = Path(tempfile.mkdtemp(dir=cache, prefix=f".{name}-"))
        try:
            listing: _Listing = {}
            for file in names:
                source, kept = folder / file, made / file
                kept.parent.mkdir(parents=True, exist_ok=True)
                _share(source, kept)
                found = kept.stat()
                listing[file] = (found.st_size, found.st_mtime_ns)
            (made / LISTING).write_bytes(msgspec.json.encode(listing))
            entry = cache / f"{name}-{key}"
            for old in cache.glob(f"{name}-*"):  # this entry made before, or older ones
                if old.is_dir() and not old.is_symlink():
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    old.unlink(missing_ok=True)
            os.replace(made, entry)
        finally:
            shutil.rmtree(made, ignore_errors=True)


def restore(name: str, key: str, folder: Path, names: Collection[str]) -> bool:
    """Put the files kept under ``name`` and ``key`` into ``folder``, linked (else copied);
    ``False``, and nothing written, where there is no such entry or it is not exactly
    ``names``, unchanged since it was kept, with the cache's rules (see the module)."""
    cache = cache_dir()
    if cache is None:
        return False
    entry = cache / f"{name}-{key}"
    try:
        listing = msgspec.json.decode(read_entry(entry / LISTING), type=_Listing)
        folders = {(entry / file).parent for file in listing}
        if (
            set(listing) != set(names)
            or not all(map(is_trusted_folder, folders))
            or not all(_unchanged(entry / file, listing[file]) for file in listing)
        ):
            return False
    except DECODE_ERRORS:
        return False
    for file in names:
        target = folder / file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        _share(entry / file, target)
    return True


def _unchanged(path: Path, listed: tuple[int, int]) -> bool:
    """Whether ``path`` is a regular file of the user's that nobody else can write to, of
    the size and modification time listed."""
    found = path.lstat()
    return (
        stat.S_ISREG(found.st_mode)
        and found.st_uid == os.getuid()
        and not found.st_mode & 0o022
        and (found.st_size, found.st_mtime_ns) == tuple(listed)
    )


def _share(source: Path, target: Path) -> None:
    """``target`` as a hard link to ``source``, or a copy of it (with its modification time)
    where the two are on different file systems or the system makes no links."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)
