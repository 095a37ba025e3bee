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
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket


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


def cached_json(name: str, key: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, or its JSON-able result stored earlier under ``name`` and ``key``."""
    folder = cache_dir()
    path = folder / f"{name}-{key}.json" if folder else None
    if path is not None:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    value = compute()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            pass
    return value


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
