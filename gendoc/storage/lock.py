"""Lock: one writer at a time per output folder.

Two builds into one folder (``make -j``, two terminals, a watcher and a
user) would otherwise interleave their renames and leave documents from
both. The lock is ``flock`` on the folder itself: the kernel drops it when
the process dies, even by ``kill -9``, so there is no stale lock to break
and no lock file left among the documents. Builds take it exclusively;
``gendoc check`` takes it shared, so it never reads a half-renamed set.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from gendoc.errors import GendocError

TIMEOUT_VARIABLE = "GENDOC_LOCK_TIMEOUT"
DEFAULT_TIMEOUT = 60.0
_POLL_SECONDS = 0.05


class LockTimeout(GendocError):
    """Another gendoc run kept the folder longer than the user was willing to wait."""


def lock_timeout() -> float:
    """Seconds to wait for a busy folder: ``$GENDOC_LOCK_TIMEOUT`` or one minute."""
    value = os.environ.get(TIMEOUT_VARIABLE, "")
    try:
        seconds = float(value) if value else DEFAULT_TIMEOUT
    except ValueError:
        raise GendocError(
            f"{TIMEOUT_VARIABLE} must be a number of seconds, not {value!r}"
        ) from None
    return max(seconds, 0.0)


@contextlib.contextmanager
def folder_lock(folder: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold ``folder`` locked while inside; wait for another holder, up to the timeout."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise GendocError(f"cannot lock folder {folder}: {exc.strerror or exc}") from None
    try:
        _acquire(fd, folder, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, folder: Path, mode: int) -> None:
    timeout = lock_timeout()
    deadline = time.monotonic() + timeout
    told = False
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        except OSError as exc:
            raise GendocError(f"cannot lock folder {folder}: {exc.strerror or exc}") from None
        if time.monotonic() >= deadline:
            raise LockTimeout(
                f"{folder} is still in use by another gendoc run after {timeout:g} s "
                f"(set {TIMEOUT_VARIABLE} to wait longer)"
            )
        if not told:
            print(f"gendoc: waiting for another gendoc run to finish in {folder}", file=sys.stderr)
            told = True
        time.sleep(_POLL_SECONDS)
