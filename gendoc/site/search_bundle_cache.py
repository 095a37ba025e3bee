"""A language's search index kept in the cache folder and restored from it.

Pagefind takes about a second per language, once the language's pages are
written. Its index depends on nothing but the HTML it reads, its own version
and its arguments, so the bundle it writes is kept in the cache folder under
a hash of those, and a build whose HTML is byte for byte the last indexed set
restores the bundle instead of running Pagefind. Only the newest bundle of
each part (below) is kept: an old one is never asked for again once its
pages changed. A kept bundle is one file, an uncompressed zip archive of the bundle's files
and their SHA-256 (creating the 450 files of a language's bundle a second time, in the
cache, cost a full build half a second of processor time on a busy machine); one with a
file missing, added or changed (a damaged cache, or a page's script rewritten in place),
or a name that is not a plain path inside the bundle, is not restored: Pagefind runs
again and its bundle replaces the kept one.

A site's search files are its own, never linked to the kept ones: whoever can write the
site (a server's upload folder) would write the cache through a link, and a kept file
would be served with the site's owner and times. Each part is copied once, in the
process that made it, while the other process may still be building its language:
restored from the cache into the folder where the parts wait, or, when Pagefind ran, from
there into the cache; joining the parts then moves their files into the site. (Linking
was cheaper: creating the 900 files of a bundle costs a millisecond or two each on a busy
machine, linking them 30 microseconds.) A kept bundle is restored only when its file and
every folder above it in the cache are the user's and nobody else can write to them (see
:func:`gendoc.storage.cache.read_entry`); it is written writable by the user alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import zipfile
from pathlib import Path

from gendoc.storage.cache import read_entry, write_entry
from gendoc.storage.write import remove_entry

MANIFEST = ".gendoc-manifest.json"
"""In a kept bundle's archive: the SHA-256 of its other files, checked before it is restored."""
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""The time of every file in a kept archive: the earliest a zip file can say."""


def keep(bundle: Path, kept: Path, key: str) -> None:
    """Store ``bundle`` as the only kept index, one archive writable by the user alone; a
    failure leaves the cache without one."""
    files = {
        path.relative_to(bundle).as_posix(): path.read_bytes()
        for path in sorted(bundle.rglob("*"))
        if path.is_file()
    }
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    files[MANIFEST] = json.dumps(digests, sort_keys=True).encode()
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as written:
        for name, data in files.items():
            written.writestr(zipfile.ZipInfo(name, _ZIP_TIME), data)
    with contextlib.suppress(OSError):
        write_entry(kept / key, archive.getvalue())
        for old in kept.iterdir():
            if old.name != key:
                remove_entry(old)


def restore(entry: Path, target: Path) -> bool:
    """Write the kept bundle ``entry`` into ``target``, if it holds exactly the files its
    manifest lists, byte for byte, each named by a plain path; ``OSError`` when it is
    missing or another user could have written it (see :func:`read_entry`)."""
    with zipfile.ZipFile(io.BytesIO(read_entry(entry))) as archive:
        listed = json.loads(archive.read(MANIFEST))
        names = [name for name in archive.namelist() if name != MANIFEST]
        if not isinstance(listed, dict) or sorted(listed) != sorted(set(names)):
            return False
        if len(names) != len(listed) or not all(_plain(name) for name in names):
            return False
        files = {name: archive.read(name) for name in names}
    if any(hashlib.sha256(data).hexdigest() != listed[n] for n, data in files.items()):
        return False
    for name, data in files.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return True


def _plain(name: str) -> bool:
    """Whether an archive's file name is a relative path inside its folder."""
    parts = name.split("/")
    return "\\" not in name and all(part not in ("", ".", "..") for part in parts)
