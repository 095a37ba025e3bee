"""HTML fragments that skip Markdown: the bulk of an operator page.

A version's body and a diff are final HTML when the template writes them.
Handing them to Python-Markdown would only make it parse them again (it
keeps raw HTML as is, after a slow pass over it), so the template marks
them, they are cut out of the Markdown and put back into the page's HTML
after conversion. A fragment is *indexed* when the search index should
see it: the plugin fills those before the search plugin reads the page,
and the rest (older versions, diffs, which repeat the newest version's
text) after it.

Schema text can never forge a marker: everything from a schema is escaped,
so a ``<`` from a schema is ``&lt;`` by the time markers are looked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MARKED = re.compile(r"<!-- gendoc:fragment (indexed|late) -->\n(.*?)<!-- gendoc:end -->\n", re.S)
_SLOT = re.compile(r"<!-- gendoc:slot (\d+) -->")


@dataclass(frozen=True)
class Fragment:
    html: str
    indexed: bool


@dataclass(frozen=True)
class Rendered:
    """A generated file: its text (Markdown with slots) and the fragments of the slots."""

    text: str
    fragments: tuple[Fragment, ...] = ()

    def fill(self, html: str, *, indexed: bool) -> str:
        """Put the indexed (or the other) fragments into the page's HTML."""

        def replace(match: re.Match[str]) -> str:
            fragment = self.fragments[int(match.group(1))]
            return fragment.html if fragment.indexed is indexed else match.group(0)

        return _SLOT.sub(replace, html) if self.fragments else html


def cut(text: str) -> Rendered:
    """Replace each marked fragment of a rendered template by a slot."""
    fragments: list[Fragment] = []

    def keep(match: re.Match[str]) -> str:
        fragments.append(Fragment(match.group(2), match.group(1) == "indexed"))
        return f"<!-- gendoc:slot {len(fragments) - 1} -->\n"

    return Rendered(_MARKED.sub(keep, text), tuple(fragments))
