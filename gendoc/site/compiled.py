"""Compiled templates kept in memory, and compiled ahead of the languages' fork.

mkdocs makes a new Jinja environment for every build, and the i18n plugin
runs one build per language, so the theme's templates would be compiled
again for each language and on every ``mkdocs serve`` reload. A bytecode
cache in memory (:data:`THEME_BYTECODE`) keeps them; Jinja compares the
source's checksum, so an edited template is compiled again. The generated
pages' environments (one per language, :mod:`gendoc.site.pages`) share one
too (:data:`PAGES_BYTECODE`), in front of the cache folder's.

When the other languages are built in a forked process
(:mod:`gendoc.site.languages`), what is compiled before the fork is compiled
for both: :func:`compile_ahead` compiles the templates a build will render,
and those they name, into these caches first. Until that fork a build runs on
one core, reading the model and preparing what the pages share; the compiling
(some 0.3 s) is done meanwhile on the other, in a process of its own
(:func:`compile_beside`), which hands the compiled code back through a pipe.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import CodeType

import jinja2
from jinja2 import meta
from jinja2.bccache import Bucket


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process.

    The code objects themselves are kept, with the checksum of the source they
    were compiled from: nothing is serialised, so nothing is unpickled. ``behind``
    is asked for what this cache lacks, and given what is compiled anew.
    """

    def __init__(self, behind: jinja2.BytecodeCache | None = None) -> None:
        self.store: dict[str, tuple[str, CodeType]] = {}
        self.behind = behind

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self.store.get(bucket.key, ("", None))
        if code is not None and checksum == bucket.checksum:
            bucket.code = code
        elif self.behind is not None:
            self.behind.load_bytecode(bucket)
            if bucket.code is not None:
                self.store[bucket.key] = (bucket.checksum, bucket.code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self.store[bucket.key] = (bucket.checksum, bucket.code)
            if self.behind is not None:
                self.behind.dump_bytecode(bucket)

    def layered(self, behind: jinja2.BytecodeCache | None) -> MemoryBytecodeCache:
        """This cache's templates in front of ``behind`` (a cache folder's, for one)."""
        cache = MemoryBytecodeCache(behind)
        cache.store = self.store
        return cache


THEME_BYTECODE = MemoryBytecodeCache()
PAGES_BYTECODE = MemoryBytecodeCache()


def compile_ahead(env: jinja2.Environment, roots: Iterable[str]) -> None:
    """Compile the templates ``roots`` and every one they import, include or extend by a
    name written out, into ``env``'s bytecode cache (one found there is not read again).

    Only a head start: a template that cannot be found or compiled is left for the render
    to report, and one named by an expression is compiled when it is rendered.
    """
    cache = env.bytecode_cache
    if cache is None or env.loader is None:
        return
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            source, filename, _ = env.loader.get_source(env, name)
            bucket = cache.get_bucket(env, name, filename, source)
            if bucket.code is not None:
                continue
            tree = env.parse(source, name, filename)
            bucket.code = env.compile(tree, name, filename)
        except jinja2.TemplateError:
            continue
        cache.set_bucket(bucket)
        todo += [found for found in meta.find_referenced_templates(tree) if found]


_CACHES = (THEME_BYTECODE, PAGES_BYTECODE)


@dataclass
class Compiling:
    """Templates being compiled in a process of their own (:func:`compile_beside`)."""

    pid: int
    pipe: int

    def take(self) -> None:
        """Wait for the process and keep what it compiled. Only a head start: if it failed,
        nothing is kept and each template is compiled when it is first rendered."""
        with os.fdopen(self.pipe, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return
        try:
            stores = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return
        for cache, store in zip(_CACHES, stores, strict=True):
            for key, compiled in store.items():
                cache.store.setdefault(key, compiled)


def compile_beside(work: Callable[[], None]) -> Compiling:
    """Run ``work`` (calls of :func:`compile_ahead`) in a forked process, which sends back
    what it compiled into :data:`THEME_BYTECODE` and :data:`PAGES_BYTECODE` (code objects,
    marshalled as Jinja's own bytecode caches write them); :meth:`Compiling.take` keeps it."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return Compiling(pid, read)
    code = 1
    try:
        os.close(read)
        work()
        data = marshal.dumps(tuple(cache.store for cache in _CACHES))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        code = 0
    except BaseException:  # the process must never return into the build: nothing is kept
        pass
    finally:
        os._exit(code)
