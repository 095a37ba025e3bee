"""The site a build replaces: written over in place, not deleted before the build.

``mkdocs build`` deletes what the site folder holds (every entry but the hidden ones)
before it writes the new site. On ext4 without a journal, as on the machines this was
measured on, a file made in the minutes after others were deleted has its inode searched
past every recently deleted one (``recently_deleted`` in ext4's inode allocator), so a
rebuild, which deleted some 3,300 files and then made as many again, spent one to two
seconds of system time where a build into an empty folder spent a third of that.

So the plugin keeps the old files from mkdocs' cleaning and lets the build write over
them, as ``mkdocs build --dirty`` does, then deletes those it did not write:

1. :func:`set_aside` (``on_pre_build``, before the cleaning) moves the entries the cleaning
   would delete into a new hidden folder beside the site (a rename each);
2. :func:`put_back` (the first ``on_files``, after it) moves them back and marks every file
   among them as not written yet: its modification time set to the epoch. A file the build
   writes gets a time of now, whether it is written over, replaced or made anew;
3. before Pagefind reads a language's pages, :func:`remove_unwritten_pages` deletes
   those still marked: a page the site no longer has is not indexed;
4. :func:`remove_unwritten` (the build's end, or its failure) deletes the files still
   marked, and the folders left empty: what mkdocs would have deleted and the build did
   not write again (mkdocs writes no empty folder).

Not for ``--dirty`` builds, which keep what they do not write on purpose.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from gendoc.site.search_index import Pages

_UNWRITTEN = 0
"""The modification time (in nanoseconds) of a kept file the build has not written yet."""


def _cleaned(site: Path) -> list[str]:
    """The entries of ``site`` that mkdocs' cleaning deletes: all but the hidden ones."""
    try:
        return sorted(name for name in os.listdir(site) if not name.startswith("."))
    except OSError:  # no site yet, or not a folder: mkdocs will say
        return []


def set_aside(site: Path) -> Path | None:
    """Move the entries of ``site`` that mkdocs' cleaning deletes into a new folder beside
    it, and return that folder; ``None`` where there is nothing to move or no folder can be
    made. An entry that cannot be moved stays for mkdocs to delete."""
    entries = _cleaned(site)
    if not entries:
        return None
    try:
        aside = Path(tempfile.mkdtemp(dir=site.parent, prefix=f".{site.name}-replaced-"))
    except OSError:
        return None
    for name in entries:
        with contextlib.suppress(OSError):
            os.rename(site / name, aside / name)
    return aside


def put_back(aside: Path, site: Path) -> None:
    """Move what :func:`set_aside` moved back into ``site``, every file marked unwritten,
    and remove ``aside``. An entry the site has again already is left where it was set
    aside, and deleted with it (it was mkdocs' to delete)."""
    for name in _cleaned(aside):
        with contextlib.suppress(OSError):
            if not os.path.lexists(site / name):
                os.rename(aside / name, site / name)
                _mark_unwritten(site / name)
    remove_aside(aside)


def remove_aside(aside: Path) -> None:
    """Remove a folder :func:`set_aside` made, with what is still in it."""
    shutil.rmtree(aside, ignore_errors=True)


def _mark_unwritten(path: Path) -> None:
    if path.is_symlink():
        return
    if not path.is_dir():
        os.utime(path, ns=(_UNWRITTEN, _UNWRITTEN))
        return
    for top, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                os.utime(
                    os.path.join(top, name), ns=(_UNWRITTEN, _UNWRITTEN), follow_symlinks=False
                )


def remove_unwritten(site: Path) -> None:
    """Delete the files of ``site`` still marked unwritten, then the folders left empty."""
    for name in _cleaned(site):
        top = site / name
        with contextlib.suppress(OSError):
            if top.is_symlink() or not top.is_dir():
                if _unwritten(top):
                    top.unlink()
                continue
            for folder, _, files in os.walk(top, topdown=False):
                for file in files:
                    path = os.path.join(folder, file)
                    if _unwritten(path):
                        os.unlink(path)
                if not os.listdir(folder):
                    os.rmdir(folder)


def remove_unwritten_pages(site: Path, pages: Pages) -> None:
    """Delete the pages of ``pages`` still marked unwritten."""
    for path in pages.paths(site):
        if _unwritten(path):
            with contextlib.suppress(OSError):
                path.unlink()


def _unwritten(path: str | Path) -> bool:
    try:
        return os.lstat(path).st_mtime_ns == _UNWRITTEN
    except OSError:
        return False
