"""Write: put rendered documents on disk atomically and only when changed.

Every document is first written to a temporary file beside its target;
only when all of them are complete are they renamed into place, so an
interrupted or failing run leaves either the old file or the new one,
never half of one. A file whose bytes would not change is left alone,
so its modification time stays and build systems see nothing new.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from gendoc.errors import GendocError


class WriteError(GendocError):
    """The output folder cannot be created or written."""


def _encode(text: str) -> bytes:
    return text.encode("utf-8")


def changed_documents(
    out_dir: Path, documents: Mapping[str, str]
) -> dict[str, tuple[bytes | None, bytes]]:
    """The documents whose bytes differ from what is on disk, as (on disk, new).

    A missing file counts as changed, with ``None`` for what is on disk.
    """
    changed = {}
    for name, text in sorted(documents.items()):
        data = _encode(text)
        target = out_dir / name
        try:
            old: bytes | None = target.read_bytes()
        except FileNotFoundError:
            old = None
        except OSError as exc:
            raise WriteError(f"cannot read {target}: {exc.strerror or exc}") from exc
        if old != data:
            changed[name] = (old, data)
    return changed


def _file_mode(target: Path) -> int:
    """Keep an existing file's permissions; new files get the usual 0644 less umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_documents(out_dir: Path, documents: Mapping[str, str]) -> list[Path]:
    """Write every changed document into ``out_dir``; return the paths written."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot create output folder {out_dir}: {exc.strerror or exc}") from exc
    if not out_dir.is_dir():
        raise WriteError(f"output path is not a folder: {out_dir}")
    changed = changed_documents(out_dir, documents)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, (_, data) in changed.items():
            fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{name}.", suffix=".tmp")
            staged.append((Path(tmp), out_dir / name))
            os.chmod(tmp, _file_mode(out_dir / name))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for tmp, target in staged:
            os.replace(tmp, target)
    except OSError as exc:
        raise WriteError(f"cannot write into {out_dir}: {exc.strerror or exc}") from exc
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return [target for _, target in staged]
