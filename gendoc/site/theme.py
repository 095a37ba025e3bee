"""Help for the theme: compiled templates kept.

mkdocs makes a new Jinja environment for every build, and the i18n plugin
runs one build per language, so the theme's templates would be compiled
again for each language and on every ``mkdocs serve`` reload. A bytecode
cache in memory keeps them; Jinja compares the source's checksum, so an
edited template is compiled again.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


THEME_BYTECODE = MemoryBytecodeCache()
