"""The rendered HTML of schema texts, remembered from one run to the next.

Rendering onnx's prose (Markdown, math, bits of HTML) is most of what a
default-style build or a site build spends its time on, yet the HTML of a
text changes only when the text does or when the renderer does. So
:func:`html` looks the text up in a table that :func:`remembered` loads from
the cache and stores back with what the run added. The table's key is a
fingerprint of the renderer: :mod:`gendoc.present.schema_render` and the packages
it is made of (markdown-it-py, its plugins, linkify-it-py, latex2mathml),
taken without importing them, so a run whose texts are all known never
imports the Markdown parser. Like the rest of the cache this can make a run
faster, never different.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path

import msgspec

import gendoc
from gendoc.storage.cache import DECODE_ERRORS, cache_dir, fingerprint, read_entry, write_entry

# What the HTML of a text depends on, besides the text: the renderer and its libraries.
_RENDERER = (
    "gendoc.present.schema_render",
    "markdown_it",
    "mdit_py_plugins",
    "linkify_it",
    "latex2mathml",
)
# A table that grows past this (many onnx releases, custom schemas) starts again.
_MOST_ENTRIES = 20_000
# The table's JSON, keys sorted: msgspec reads and writes its 2.4 MB (a site build's, both
# languages) three times faster than the json module, and checks that every value is a text.
_TABLE_JSON = msgspec.json.Encoder(order="sorted")


def _table_file() -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    files = []
    for name in _RENDERER:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        files.append(Path(spec.origin))
    try:
        key = fingerprint(gendoc.__version__, files)
    except OSError:
        return None
    return folder / f"schema-html-{key}.json"


def _read(path: Path) -> dict[str, str]:
    """A stored table, or nothing when it is missing or damaged."""
    with contextlib.suppress(*DECODE_ERRORS):
        return msgspec.json.decode(read_entry(path), type=dict[str, str])
    return {}


class _Table:
    """The texts rendered so far in this process, and which of them the stored table lacks."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}
        self.added: dict[str, str] = {}
        self.depth = 0  # how many remembered() blocks are open
        self.loaded = False  # whether this block has read the stored table
        self.path: Path | None = None  # where it is stored (None: the cache is off)

    def html(self, text: str, base: str) -> str:
        key = f"{base}\0{text}"
        found = self.known.get(key)
        if found is None and self.depth and not self.loaded:
            self.load()
            found = self.known.get(key)
        if found is None:
            from gendoc.present.schema_render import (
                render_text,  # markdown-it: only for a new text
            )

            found = self.known[key] = self.added[key] = render_text(text, base)
        return found

    def load(self) -> None:
        self.loaded, self.path = True, _table_file()
        if self.path is not None:
            self.known.update(_read(self.path))

    def store(self) -> None:
        """Write the table with what this run added; what another process stored since this
        one loaded it is read again and kept (a site build renders its languages in two)."""
        path, self.loaded = self.path, False
        added, self.added = self.added, {}
        if path is None or not added:
            return
        self.known.update({k: v for k, v in _read(path).items() if k not in self.known})
        table = self.known if len(self.known) <= _MOST_ENTRIES else added
        data = _TABLE_JSON.encode(table)
        with contextlib.suppress(OSError):
            write_entry(path, data)
            for old in path.parent.glob("schema-html-*.json"):
                if old != path:
                    old.unlink(missing_ok=True)


_TABLE = _Table()


def html(text: str, base: str) -> str:
    """:func:`gendoc.present.schema_render.render_text`, from the table when the text is known."""
    return _TABLE.html(text, base)


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """Within this block, :func:`html` starts from the stored table; new texts are stored after.

    The table is read at the first text the block renders (a block that renders
    none costs nothing) and written when the outermost block ends without an
    error, if a text was new. Blocks may nest.
    """
    _TABLE.depth += 1
    try:
        yield
    finally:
        _TABLE.depth -= 1
    if _TABLE.depth == 0:
        _TABLE.store()
