"""A small on-disk cache for what is costly to derive and rarely changes.

Reading the example snippets out of onnx's test-case sources takes longer
than everything else a build does. They change only when onnx is
reinstalled, so they are cached under a key made of the onnx version and the
path, size and modification time of every source file they come from.
Compiled templates come next, each stored with its source's checksum.
Any problem with the cache (read-only home, corrupt file) silently falls back
to computing the value again: the cache can make a run faster, never different.

Every entry is checked when it is read: bytes that do not decode, or decode
to a value of the wrong shape, are a miss, and the value computed instead
replaces the entry, so a damaged cache heals on the next run. The folder is
created private to the user (0700), and only the user can have written what
gendoc reads from it: an entry is read only when it and every folder from it up
to the cache folder are the user's and nobody else can write to them
(:func:`read_entry`), otherwise it is a miss and nothing is written there
(:func:`private_folder`). Compiled templates are Python code that gendoc runs, and
the other entries become documents and the site's pages and scripts: whoever could
replace them could run code as the user or in the readers' browsers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import stat
import tempfile
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import jinja2
from jinja2.bccache import Bucket, bc_magic

T = TypeVar("T")


def cache_dir() -> Path | None:
    """``$GENDOC_CACHE_DIR``, else ``$XDG_CACHE_HOME/gendoc``, else ``~/.cache/gendoc``.

    Setting ``GENDOC_CACHE_DIR`` to an empty string turns the cache off.
    """
    explicit = os.environ.get("GENDOC_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gendoc"


def fingerprint(label: str, files: Iterable[Path]) -> str:
    """A key that changes whenever any of ``files`` is added, removed or touched."""
    digest = hashlib.sha256(label.encode())
    for path in sorted(files):
        st = path.stat()
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


def private_folder(folder: Path) -> Path:
    """``folder``, created if missing with permissions for its user alone (0700), and so is
    each missing folder above it (``mkdir(parents=True)`` would make those 0755).

    ``OSError`` when the folder, or one above it in the cache, is another user's or others
    can write to it: nothing is written into a cache someone else could have filled."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)
    if not is_trusted_folder(folder):
        raise OSError(f"{folder} is not private to this user")
    return folder


def _owned(st: os.stat_result) -> bool:
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def is_private(folder: Path) -> bool:
    """Whether ``folder`` is the user's and nobody else can write to it."""
    try:
        return _owned(folder.stat())
    except OSError:
        return False


def is_trusted_folder(folder: Path) -> bool:
    """Whether ``folder`` and every folder above it up to the cache folder are the user's
    and nobody else can write to them (outside the cache: ``folder`` and its parent).

    Above the cache folder nothing is asked: a folder there that others could write to
    lets them move the cache folder away, but what they put in its place is theirs."""
    root = cache_dir()
    chain = [Path(os.path.abspath(folder))]
    top = Path(os.path.abspath(root)) if root is not None else None
    if top is not None and (chain[0] == top or top in chain[0].parents):
        while chain[-1] != top:
            chain.append(chain[-1].parent)
    else:
        chain.append(chain[0].parent)
    return all(map(is_private, chain))


def read_entry(path: Path) -> bytes:
    """The bytes of a cache file; ``OSError`` unless it is a regular file that the user owns
    and nobody else can write to, in a folder chain :func:`is_trusted_folder` accepts.

    A named pipe put in an entry's place would block the read for ever, a link
    could make gendoc read (and trust) a file outside the cache, and an entry
    someone else could have written is theirs: all are misses, like a missing
    entry. The pipe is opened without blocking; the owner is that of the file
    opened, not of what a name pointed to before.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        if not _owned(st) or not is_trusted_folder(path.parent):
            raise OSError(f"{path} could have been written by another user")
        return f.read()


DECODE_ERRORS = (OSError, ValueError, TypeError, RecursionError)
"""What reading a damaged entry can raise: each means a miss."""


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How a cached value becomes bytes in a file of the cache, and back.

    ``decode`` raises ``ValueError`` on bytes it cannot read (a cache file
    from another version, or a damaged one), which means computing again.
    """

    suffix: str
    encode: Callable[[T], bytes]
    decode: Callable[[bytes], T]


JSON: Codec[Any] = Codec(
    ".json",
    lambda value: json.dumps(value, ensure_ascii=False).encode(),
    json.loads,
)


def cached(
    name: str,
    key: str,
    compute: Callable[[], T],
    codec: Codec[T],
    *,
    only_latest: bool = False,
    valid: Callable[[T], bool] = lambda value: True,
) -> T:
    """``compute()``, or its value stored earlier under ``name`` and ``key``.

    A stored value that does not decode, or that ``valid`` rejects, is computed
    again and replaced. With ``only_latest``, storing a value removes the values
    of other keys under the same name, and those in another codec's files (an
    earlier gendoc's): for large entries that a new key makes useless (a new onnx).
    """
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / f"{name}-{key}{codec.suffix}"
    try:
        stored = codec.decode(read_entry(path))
        if valid(stored):
            return stored
    except DECODE_ERRORS:
        pass
    value = compute()
    with contextlib.suppress(OSError):
        write_entry(path, codec.encode(value))
        if only_latest:
            for old in folder.glob(f"{name}-{'?' * len(key)}.*"):
                if old != path:
                    old.unlink(missing_ok=True)
    return value


def cached_json(
    name: str, key: str, compute: Callable[[], Any], valid: Callable[[Any], bool]
) -> Any:
    """``compute()`` for a JSON-able value, or the value stored earlier if ``valid`` says
    it has the shape ``compute()`` gives."""
    return cached(name, key, compute, JSON, valid=valid)


def write_entry(path: Path, data: bytes) -> None:
    """Replace one cache file atomically, so a reader never sees half of it."""
    private_folder(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class TemplateCache(jinja2.BytecodeCache):
    """Jinja's compiled templates on disk, checked before they are trusted.

    Jinja's own file cache unpickles a header and unmarshals the code it finds,
    so a damaged file is a traceback on every run until it is deleted by hand.
    Here an entry is the magic of this Python and Jinja, the template's source
    checksum, a SHA-256 of the code and the marshalled code: anything that
    does not match (a truncated or damaged file, another template's code,
    another Python) is a miss, and the template compiled again replaces it.
    Nothing is read from a folder others could write to (:func:`read_entry`): the
    code runs.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, bucket: Bucket) -> Path:
        return self.directory / f"{bucket.key}.cache"

    def load_bytecode(self, bucket: Bucket) -> None:
        code = None
        with contextlib.suppress(*DECODE_ERRORS):
            code = _code_of(read_entry(self._path(bucket)), bucket.checksum)
        if code is not None:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is None:
            return
        code = marshal.dumps(bucket.code)
        header = bc_magic + bucket.checksum.encode() + b"\0" + hashlib.sha256(code).digest()
        with contextlib.suppress(OSError, ValueError):
            write_entry(self._path(bucket), header + code)


def _code_of(data: bytes, checksum: str) -> types.CodeType | None:
    """The compiled template in ``data`` if it is whole and of this source, else ``None``."""
    if not data.startswith(bc_magic):
        return None
    stored, _, rest = data[len(bc_magic) :].partition(b"\0")
    digest, code = rest[:32], rest[32:]
    if stored != checksum.encode() or hashlib.sha256(code).digest() != digest:
        return None
    loaded = marshal.loads(code)
    return loaded if isinstance(loaded, types.CodeType) else None


def template_cache(variant: str) -> TemplateCache | None:
    """Compiled templates of one environment set-up.

    Jinja keys compiled code by the template's source alone, but what the
    compiler writes also depends on the environment (a ``finalize`` call around
    every expression, for one), so each set-up gets a folder of its own.
    """
    folder = cache_dir()
    return TemplateCache(folder / f"templates-{variant}") if folder else None
