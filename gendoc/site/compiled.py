"""Help for the theme: compiled templates kept.

mkdocs makes a new Jinja environment for every build, and the i18n plugin
runs one build per language, so the theme's templates would be compiled
again for each language and on every ``mkdocs serve`` reload. A bytecode
cache in memory keeps them; Jinja compares the source's checksum, so an
edited template is compiled again.
"""

from __future__ import annotations

from types import CodeType

import jinja2
from jinja2.bccache import Bucket


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process.

    The code objects themselves are kept, with the checksum of the source they
    were compiled from: nothing is serialised, so nothing is unpickled.
    """

    def __init__(self) -> None:
        self.store: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self.store.get(bucket.key, ("", None))
        if code is not None and checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self.store[bucket.key] = (bucket.checksum, bucket.code)


THEME_BYTECODE = MemoryBytecodeCache()
