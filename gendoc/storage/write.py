"""Write: put rendered documents on disk atomically and only when changed.

Every document is first written to a temporary file beside its target;
only when all of them are complete are they renamed into place, so an
interrupted or failing run leaves either the old file or the new one,
never half of one. A file whose bytes would not change is left alone,
so its modification time stays and build systems see nothing new.

Runs that cannot clean up after themselves (``kill -9``, a power cut) are
finished by the next one: before the first rename, the list of renames is
written to a journal in the folder; the next build completes those renames
and removes temporary files of its own naming pattern. A journal is data
read from the folder: it may only move gendoc's own temporary files onto
the documents being written, and any other entry refuses it before a file
is touched. ``gendoc check``
reports such leftovers instead of calling the folder up to date. Only
regular files are ever read or replaced: a named pipe, a device or a link
in place of a document is refused, since reading a pipe would hang and
replacing ``/dev/stdout`` or a link would silently write somewhere else.
For the same reason an output folder reached through a link is refused
(:func:`refuse_linked_folder`): ``docs/zh`` committed as a link to a folder
elsewhere would have a build write there. A folder that gendoc makes for itself
inside one it writes (the site's search index) is replaced, never followed
(:func:`remove_entry`, :func:`remove_links`).
"""

from __future__ import annotations

import errno
import glob
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from gendoc.console import signals_deferred
from gendoc.errors import GendocError
from gendoc.storage.lock import folder_lock

JOURNAL = ".gendoc-journal"
"""The file in an output folder that lists the renames of a build still in progress."""


class WriteError(GendocError):
    """The output folder cannot be created or written."""


class InterruptedBuild(GendocError):
    """A build into the folder was killed before it finished; stale, like an old document."""

    exit_code = 1


def _encode(text: str) -> bytes:
    return text.encode("utf-8")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


_FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _refuse_special(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _FILE_KINDS if test(mode)), "a special file")
        raise WriteError(f"{path} is {kind}, not a regular file")


def read_regular_file(path: Path, *, follow_links: bool = False) -> bytes | None:
    """The bytes of a regular file, ``None`` if it is missing; refuse anything else.

    The type is checked before opening (opening a device can have effects)
    and again on the open descriptor, which cannot block on a pipe swapped
    in meanwhile thanks to ``O_NONBLOCK``. Links are refused unless
    ``follow_links``: reading through one is harmless, replacing one is not.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow_links else os.O_NOFOLLOW)
    try:
        _refuse_special(path, (os.stat if follow_links else os.lstat)(path).st_mode)
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WriteError(f"{path} is a symbolic link, not a regular file") from None
        raise WriteError(f"cannot read {path}: {_reason(exc)}") from None
    with os.fdopen(fd, "rb") as f:
        _refuse_special(path, os.fstat(fd).st_mode)
        try:
            return f.read()
        except OSError as exc:
            raise WriteError(f"cannot read {path}: {_reason(exc)}") from None


def _temp_files(out_dir: Path, names: Iterable[str]) -> list[Path]:
    """Temporary files of this writer's naming pattern (``.<name>.*.tmp``) for ``names``."""
    found: list[Path] = []
    for name in sorted({*names, JOURNAL}):
        found += sorted(out_dir.glob(f".{glob.escape(name)}.*.tmp"))
    return found


def _leftovers(out_dir: Path, names: Iterable[str]) -> list[Path]:
    journal = out_dir / JOURNAL
    return ([journal] if os.path.lexists(journal) else []) + _temp_files(out_dir, names)


def _changed(out_dir: Path, documents: Mapping[str, str]) -> dict[str, tuple[bytes | None, bytes]]:
    changed = {}
    for name, text in sorted(documents.items()):
        data = _encode(text)
        old = read_regular_file(out_dir / name)
        if old != data:
            changed[name] = (old, data)
    return changed


def changed_documents(
    out_dir: Path, documents: Mapping[str, str]
) -> dict[str, tuple[bytes | None, bytes]]:
    """The documents whose bytes differ from what is on disk, as (on disk, new).

    A missing file counts as changed, with ``None`` for what is on disk. The
    folder is read under a shared lock, so a build in progress is waited for;
    leftovers of a killed build raise :class:`InterruptedBuild`.
    """
    if not out_dir.is_dir():
        return _changed(out_dir, documents)
    with folder_lock(out_dir, shared=True):
        leftovers = _leftovers(out_dir, documents)
        if leftovers:
            more = f" and {len(leftovers) - 1} more" if len(leftovers) > 1 else ""
            raise InterruptedBuild(
                f"a build into {out_dir} was interrupted (it left {leftovers[0].name}{more}); "
                "run gendoc build to finish it"
            )
        return _changed(out_dir, documents)


def _file_mode(target: Path) -> int:
    """Keep an existing file's permissions; new files get the usual 0644 less umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _stage(out_dir: Path, name: str, data: bytes, staged: list[tuple[Path, Path]]) -> None:
    """Write ``data`` to a complete, synced temporary file for ``name``; record it in ``staged``.

    The temporary file is recorded before it is written, so that cleanup
    finds it whatever fails next; no signal can come between its creation and
    its record.
    """
    target = out_dir / name
    with signals_deferred():
        fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{name}.", suffix=".tmp")
        staged.append((Path(tmp), target))
    with os.fdopen(fd, "wb") as f:
        os.fchmod(f.fileno(), _file_mode(target))
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _journal_bytes(staged: list[tuple[Path, Path]]) -> bytes:
    return json.dumps([[tmp.name, target.name] for tmp, target in staged]).encode()


def _journal_entries(data: bytes) -> list[tuple[str, str]]:
    """The (temporary file, document) pairs of a journal; ValueError when it is damaged."""
    entries = json.loads(data)
    if not isinstance(entries, list) or not all(
        isinstance(e, list) and len(e) == 2 and all(isinstance(n, str) for n in e) for e in entries
    ):
        raise ValueError("not a list of [temporary file, document] pairs")
    return [(tmp, target) for tmp, target in entries]


def _own_temp_file(name: str, target: str) -> bool:
    """Whether ``name`` is one of this writer's temporary files for ``target``
    (``tempfile.mkstemp`` names them with lower-case letters, digits and ``_``)."""
    return re.fullmatch(rf"\.{re.escape(target)}\.[a-z0-9_]+\.tmp", name) is not None


def _journal_renames(out_dir: Path, documents: Iterable[str]) -> list[tuple[Path, Path]]:
    """The renames a journal asks for, every one checked before any is made.

    A journal is read from the folder, so it is data like any input: it may
    only move one of this writer's temporary files (``.<document>.<random>.tmp``)
    onto one of the documents being written, both regular files in ``out_dir``.
    Anything else refuses the whole journal, with no file touched.
    """
    journal = out_dir / JOURNAL
    data = read_regular_file(journal)
    if data is None:
        return []
    try:
        entries = _journal_entries(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise WriteError(f"{journal} is damaged ({exc}); delete it and build again") from None
    allowed = set(documents)
    renames = []
    for tmp_name, target_name in entries:
        if target_name not in allowed:
            raise WriteError(
                f"{journal} would replace {target_name!r}, which is not a document gendoc "
                "writes there; delete the journal and build again"
            )
        if not _own_temp_file(tmp_name, target_name):
            raise WriteError(
                f"{journal} would move {tmp_name!r}, which is not a temporary file of "
                f"gendoc's, onto {target_name}; delete the journal and build again"
            )
        tmp, target = out_dir / tmp_name, out_dir / target_name
        if os.path.lexists(tmp):
            _refuse_special(tmp, os.lstat(tmp).st_mode)
            read_regular_file(target)  # refuses a pipe, device or link put in the target's place
            renames.append((tmp, target))
    return renames


def _roll_forward(out_dir: Path, documents: Iterable[str]) -> None:
    """Finish the renames of a build that was killed between them, then drop its journal."""
    renames = _journal_renames(out_dir, documents)
    for tmp, target in renames:
        os.replace(tmp, target)
    (out_dir / JOURNAL).unlink(missing_ok=True)


def _recover(out_dir: Path, names: Iterable[str]) -> None:
    """Clear what a killed run left: finish its renames, remove its temporary files."""
    names = list(names)
    _roll_forward(out_dir, names)
    for tmp in _temp_files(out_dir, names):
        tmp.unlink(missing_ok=True)


def _checked_parts(folder: Path) -> list[tuple[Path, Path]]:
    """The folders of ``folder``'s path that may not be links, each with how to name it:
    every one below the working folder (a checkout: its content may come from others), or
    the last one alone. The path is taken as written (``docs/../x`` goes through ``docs``,
    as the system goes), never normalised."""
    try:
        here = Path.cwd()
    except OSError:  # the working folder was removed: only the folder itself can be named
        return [(folder, folder)]
    if folder.is_absolute() and not folder.is_relative_to(here):
        return [(folder, folder)]
    parts = folder.relative_to(here).parts if folder.is_absolute() else folder.parts
    return [(here.joinpath(*parts[: i + 1]), Path(*parts[: i + 1])) for i in range(len(parts))]


def refuse_linked_folder(folder: Path) -> None:
    """Refuse, in one line, an output folder that is, or is reached through, a symbolic link."""
    for part, shown in _checked_parts(folder):
        try:
            linked = part.is_symlink()
        except OSError:  # unreadable: creating or opening the folder says why, in one line
            return
        if linked:
            raise WriteError(
                f"output folder {folder}: {shown} is a symbolic link; gendoc writes into real "
                "folders only (remove the link, or give the folder it points to)"
            )


def remove_entry(path: Path) -> None:
    """Remove what is at ``path``, following no link: a folder with all it holds, or a link
    or a file itself (never what a link points to)."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        path.unlink()


def remove_links(folder: Path) -> None:
    """Remove every symbolic link inside ``folder``, at any depth, following none."""
    for root, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            entry = Path(root, name)
            if entry.is_symlink():
                entry.unlink()


def _make_folder(out_dir: Path) -> None:
    refuse_linked_folder(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot create output folder {out_dir}: {_reason(exc)}") from exc
    if not out_dir.is_dir():
        raise WriteError(f"output path is not a folder: {out_dir}")


def write_documents(out_dir: Path, documents: Mapping[str, str]) -> list[Path]:
    """Write every changed document into ``out_dir``; return the paths written.

    The folder stays locked from the first look at it to the last rename,
    so concurrent builds take turns instead of mixing their documents.
    """
    _make_folder(out_dir)
    with folder_lock(out_dir):
        try:
            _recover(out_dir, documents)
        except OSError as exc:
            raise WriteError(f"cannot clean up {out_dir}: {_reason(exc)}") from exc
        return _replace_changed(out_dir, _changed(out_dir, documents))


_Changes = Mapping[str, tuple[bytes | None, bytes]]
"""Document name -> (bytes on disk or None, new bytes)."""


def _replace_changed(out_dir: Path, changed: _Changes) -> list[Path]:
    staged: list[tuple[Path, Path]] = []
    renames: list[tuple[Path, Path]] = []
    journal = out_dir / JOURNAL
    try:
        for name, (_, data) in changed.items():
            _stage(out_dir, name, data, staged)
        renames = list(staged)
        if len(renames) > 1:  # one rename is atomic by itself
            _stage(out_dir, JOURNAL, _journal_bytes(renames), staged)
        # From the journal's rename to its removal nothing may stop halfway: a signal
        # waits, and only a kill -9 can leave the journal for the next build to finish.
        with signals_deferred():
            if len(renames) > 1:
                os.replace(staged[-1][0], journal)
            for tmp, target in renames:
                os.replace(tmp, target)
            journal.unlink(missing_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot write into {out_dir}: {_reason(exc)}") from exc
    finally:
        with signals_deferred():  # a second signal must not cut the clean-up short
            for tmp, _ in staged:
                tmp.unlink(missing_ok=True)
    return [target for _, target in renames]
