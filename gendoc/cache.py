"""A small on-disk cache for what is costly to derive and rarely changes.

Reading the example snippets out of onnx's test-case sources takes longer
than everything else a build does. They change only when onnx is
reinstalled, so they are cached under a key made of the onnx version and the
path, size and modification time of every source file they come from.
Compiled templates come next; Jinja checks their source's checksum itself.
Any problem with the cache (read-only home, corrupt file) silently falls back
to computing the value again: the cache can make a run faster, never different.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import jinja2
from jinja2.bccache import Bucket

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
    name: str, key: str, compute: Callable[[], T], codec: Codec[T], *, only_latest: bool = False
) -> T:
    """``compute()``, or its value stored earlier under ``name`` and ``key``.

    With ``only_latest``, storing a value removes the values of other keys under
    the same name: for large entries that a new key makes useless (a new onnx).
    """
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / f"{name}-{key}{codec.suffix}"
    try:
        return codec.decode(path.read_bytes())
    except (OSError, ValueError):
        pass
    value = compute()
    with contextlib.suppress(OSError):
        write_entry(path, codec.encode(value))
        if only_latest:
            for old in folder.glob(f"{name}-*{codec.suffix}"):
                if old != path:
                    old.unlink(missing_ok=True)
    return value


def cached_json(name: str, key: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` for a JSON-able value, or the value stored earlier."""
    return cached(name, key, compute, JSON)


def write_entry(path: Path, data: bytes) -> None:
    """Replace one cache file atomically, so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's compiled templates on disk, as best-effort as the rest of this module."""

    def load_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)


def template_cache(variant: str) -> TemplateCache | None:
    """Compiled templates of one environment set-up.

    Jinja keys compiled code by the template's source alone, but what the
    compiler writes also depends on the environment (a ``finalize`` call around
    every expression, for one), so each set-up gets a folder of its own.
    """
    folder = cache_dir()
    return TemplateCache(str(folder / f"templates-{variant}")) if folder else None
