"""Help for the theme and its search: compiled templates kept, Chinese words taught.

mkdocs makes a new Jinja environment for every build, and the i18n plugin
runs one build per language, so the theme's templates would be compiled
again for each language and on every ``mkdocs serve`` reload. A bytecode
cache in memory keeps them; Jinja compares the source's checksum, so an
edited template is compiled again.

Material's search segments Chinese text with jieba at build time. jieba
does not know the tag labels as words (it cuts 不可微 into 不可 and 微),
so they are added to its dictionary.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket

from gendoc.display import Display
from gendoc.model import Differentiability


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


def register_words(display: Display) -> None:
    """Add the tag labels and the word for differentiability to jieba's dictionary."""
    try:
        import jieba
    except ImportError:  # without jieba, Material's search does not segment at all
        return
    for tag in Differentiability:
        jieba.add_word(display.tag(tag))
    jieba.add_word(display.gettext("Differentiability"))
