"""Files a build wrote, kept in the cache folder for the next build as links to themselves.

A site publishes some 20 MB of files made from the reference alone: its data and its
Markdown (:mod:`gendoc.site.published`). Kept as copies, they cost a full build a second
write of every byte. So an entry is a folder of hard links to the files as the build wrote
them (private copies where no link can be made, or where others may write to a file), with
a listing of each file's size and CRC-32; the next build with the same key reads them
back, checked against the listing, and writes them into its site as files of its own
(:func:`restore`).

A link shares the file, so it must not change: gendoc writes these files as new files
renamed over the old (:func:`write_files`), never in place, and a rebuild writes its own
copies rather than linking the kept ones again. Their modification time may change (a
rebuild marks the old site's files as not written yet, see
:mod:`gendoc.site.replaced_site`); their bytes may not: a file changed in place by anything
else no longer matches its CRC, and the entry is a miss, as a damaged one is. Like every
entry of the cache (:mod:`gendoc.storage.cache`), an entry is read only where the user owns
it, its files and its folders, and nobody else can write to them; its files must be
regular files, not links to elsewhere; and it must list exactly the names the build would
write, so that it can never choose where a file goes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zlib
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

import msgspec

from gendoc.storage.cache import DECODE_ERRORS, cache_dir, private_folder, read_entry

LISTING = ".listing.json"
"""In an entry's folder: each file's name, size and CRC-32."""

Listing = dict[str, tuple[int, int]]
"""Files by name: the size and CRC-32 of each, as written."""


@cache
def _file_mode() -> int:
    """The mode of a new file under the process's umask (read once: setting it is the only
    way to read it)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_files(folder: Path, files: Mapping[str, str | bytes]) -> Listing:
    """Write each text (by path under ``folder``, as UTF-8) as a new file that replaces the
    old one, so that a file an entry shares is never changed; what was written."""
    mode = _file_mode()
    written: Listing = {}
    for name, text in files.items():
        data = text.encode("utf-8") if isinstance(text, str) else text
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        written[name] = (len(data), zlib.crc32(data))
    return written


def keep(name: str, key: str, folder: Path, written: Listing) -> None:
    """Keep the files of ``folder`` that :func:`write_files` ``written`` there under
    ``name`` and ``key``, and drop the entries of ``name`` under other keys; a failure only
    loses the entry."""
    cache = cache_dir()
    if cache is None:
        return
    with contextlib.suppress(OSError):
        private_folder(cache)
        made = Path(tempfile.mkdtemp(dir=cache, prefix=f".{name}-"))
        try:
            for inside in sorted({(made / file).parent for file in written}):
                private_folder(inside)  # as private as the cache, whatever the umask
            for file in written:
                _share(folder / file, made / file)
            listing = os.open(made / LISTING, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(listing, "wb") as out:
                out.write(msgspec.json.encode(written))
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
    """Write into ``folder`` the files kept under ``name`` and ``key``; ``False``, and
    nothing written, where there is no such entry or it is not exactly ``names``, each as
    listed, with the cache's rules (see the module)."""
    cache = cache_dir()
    if cache is None:
        return False
    entry = cache / f"{name}-{key}"
    try:
        listing = msgspec.json.decode(read_entry(entry / LISTING), type=Listing)
        if set(listing) != set(names):
            return False
        found = {file: read_entry(entry / file) for file in sorted(listing)}
    except DECODE_ERRORS:
        return False
    if any((len(data), zlib.crc32(data)) != listing[file] for file, data in found.items()):
        return False
    write_files(folder, found)
    return True


def _share(source: Path, target: Path) -> None:
    """``target`` as a hard link to ``source``; a copy of it, private to the user, where the
    two are on different file systems, the system makes no links, or others may write to
    ``source`` (under a umask of 002, say: the cache reads no such file)."""
    if not source.lstat().st_mode & 0o022:
        with contextlib.suppress(OSError):
            os.link(source, target, follow_symlinks=False)
            return
    shutil.copyfile(source, target, follow_symlinks=False)
    os.chmod(target, 0o600, follow_symlinks=False)
