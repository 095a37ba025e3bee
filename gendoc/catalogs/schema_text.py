"""Catalogs of schema text: onnx's prose, one gettext entry per paragraph.

Operator docs and descriptions are translated paragraph by paragraph: the
msgid is the English paragraph itself, so when onnx rewrites one, its
translation no longer matches, turns fuzzy on the next catalog update and
the page falls back to English instead of showing a stale translation. A
paragraph is a block of lines separated by blank lines; a fenced code block
belongs to the paragraph around it and a paragraph that is only code is not
translated at all. Identical paragraphs are one entry, whichever operators
and versions share them, so translating the newest versions covers most of
the older ones.

One catalog per domain, ``templates/locale/<lang>/LC_MESSAGES/schema-<domain>.po``
(the default domain is ``schema-ai.onnx``), read and written with Babel so
that Poedit, Weblate and ``msgfmt`` handle them as they are.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog

from gendoc.catalogs.i18n import catalog_path, read_catalog, update_catalog, write_catalog
from gendoc.catalogs.translated import unlinked
from gendoc.model.reference import Reference, Schema, domain_label, labelled
from gendoc.storage.resources import templates_root

_FENCE = re.compile(r"^\s*(```|~~~)")


# A control character other than a line break or tab, or a character reference to any
# control character (``&#13;``, ``&#xD;``, ``&NewLine;``...): Markdown readers decode a
# reference into the character, and a carriage return in the HTML that GitHub reads
# ends the HTML block the text is in.
_SOURCE_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f]"
    r"|&#0*(?:[0-9]|[12][0-9]|3[01]|12[7-9]|1[3-5][0-9])(?![0-9]);?"
    r"|&#[xX]0*(?:[0-9a-fA-F]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])(?![0-9a-fA-F]);?"
    r"|&(?:Tab|NewLine);"
)


def schema_source(text: str) -> str:
    """Schema text as every guard after this sees it: line endings made ``\\n`` and every
    other control character, raw or as a character reference, dropped."""
    return _SOURCE_CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a schema text, as the catalogs key them.

    The text is cleaned and dedented as Markdown rendering sees it
    (:func:`schema_source`, ``inspect.cleandoc``); blank lines
    inside a fenced code block do not split it.
    """
    source = inspect.cleandoc(schema_source(text))
    found: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in source.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line.rstrip())
    if current:
        found.append("\n".join(current))
    return found


def is_translatable(paragraph: str) -> bool:
    """Prose, not a code block alone: a paragraph that opens and closes a fence is code."""
    lines = paragraph.split("\n")
    return not (_FENCE.match(lines[0]) and _FENCE.match(lines[-1]) and len(lines) > 1)


@dataclass(frozen=True)
class Occurrence:
    """Where a paragraph is used: ``Reshape-25 doc``, ``Conv-11 input X``..."""

    schema: Schema
    field: str

    def __str__(self) -> str:
        return f"{self.schema.name}-{self.schema.since_version} {self.field}"


def schema_texts(schema: Schema) -> Iterator[tuple[str, str]]:
    """Every prose field of one version, as (field label, text)."""
    yield "doc", schema.doc
    for attr in schema.attributes:
        yield f"attribute {attr.name}", attr.description
    for ref, param in labelled(schema):
        yield str(ref), param.description
    for tc in schema.type_constraints:
        yield f"type constraint {tc.name}", tc.description


def catalog_entries(schemas: Iterable[Schema]) -> dict[str, list[Occurrence]]:
    """Each translatable paragraph of ``schemas``, with every place it occurs, in order."""
    entries: dict[str, list[Occurrence]] = {}
    for schema in schemas:
        for field, text in schema_texts(schema):
            for paragraph in paragraphs(text):
                if is_translatable(paragraph):
                    entries.setdefault(paragraph, []).append(Occurrence(schema, field))
    return entries


def catalog_name(domain: str) -> str:
    """The gettext domain (file stem) of a domain's schema catalog."""
    return f"schema-{domain_label(domain)}"


def newest_versions(reference: Reference, domain: str) -> list[Schema]:
    """The newest version of every operator of a domain: what translators do first."""
    return [op.latest for op in reference.operators(domain)]


def build_template(reference: Reference, domain: str) -> Catalog:
    """The ``.pot`` of one domain: every paragraph of every version, newest versions first.

    Entries of the newest versions come first, so a translator meets what
    readers see most before what only the changelog shows.
    """
    newest = newest_versions(reference, domain)
    older = [s for op in reference.operators(domain) for s in op.versions[:-1]]
    template = Catalog(project="gendoc", domain=catalog_name(domain), fuzzy=False)
    for paragraph, occurrences in catalog_entries([*newest, *older]).items():
        shown = "; ".join(str(o) for o in occurrences[:3])
        more = len(occurrences) - 3
        template.add(
            paragraph,
            auto_comments=[shown + (f"; and {more} more" if more > 0 else "")],
            flags=("no-python-format",),
        )
    return template


@dataclass(frozen=True)
class Coverage:
    """How much of a domain's newest schema text a catalog translates."""

    domain: str
    translated: int
    fuzzy: int
    missing: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.missing


def coverage(reference: Reference, domain: str, lang: str, root: Path) -> Coverage:
    """Translated, fuzzy and missing paragraphs among the newest versions of ``domain``."""
    path = catalog_path(root, lang, catalog_name(domain))
    catalog = _catalog(path, lang, path.stat().st_mtime_ns) if path.is_file() else Catalog()
    counts = {"translated": 0, "fuzzy": 0, "missing": 0}
    for paragraph in catalog_entries(newest_versions(reference, domain)):
        message = catalog.get(paragraph)
        if message is None or not message.string:
            counts["missing"] += 1
        elif message.fuzzy:
            counts["fuzzy"] += 1
        else:
            counts["translated"] += 1
    return Coverage(domain, **counts)


def update_all(reference: Reference, root: Path, lang: str) -> list[Path]:
    """``make catalogs``: bring every domain's schema catalog of ``lang`` up to date."""
    written = []
    for domain in reference.domains:
        path = catalog_path(root, lang, catalog_name(domain))
        write_catalog(update_catalog(build_template(reference, domain), path, lang), path)
        written.append(path)
    return written


class SchemaText:
    """Schema paragraphs in one language: translated when a current translation exists.

    ``translated`` maps an English paragraph to its translation; fuzzy and
    empty entries are not in it. A paragraph whose translation is the same
    text (a formula) counts as translated.
    """

    def __init__(self, translated: dict[str, str]) -> None:
        self._translated = translated

    def translates(self, paragraph: str) -> bool:
        """Whether one paragraph (as ``paragraphs`` splits it) is shown translated."""
        return not is_translatable(paragraph) or paragraph in self._translated

    def paragraphs(self, text: str) -> list[tuple[str, bool]]:
        """Each paragraph of ``text`` as shown, with whether it is shown translated.

        A code-only paragraph counts as translated: it is the same in every language.
        """
        shown = []
        for paragraph in paragraphs(text):
            if not is_translatable(paragraph):
                shown.append((paragraph, True))
            elif paragraph in self._translated:
                shown.append((self._translated[paragraph], True))
            else:
                shown.append((paragraph, False))
        return shown


def schema_text(lang: str, templates: Path | None = None) -> SchemaText:
    """Every schema catalog of ``lang``: gendoc's, then the user's, which override them."""
    return SchemaText(_current_translations(lang, templates))


def _current_translations(lang: str, templates: Path | None) -> dict[str, str]:
    translated: dict[str, str] = {}
    for root in (templates_root(), templates):
        if root is None:
            continue
        folder = catalog_path(root, lang, "schema-x").parent
        for path in sorted(folder.glob("schema-*.po")):
            translated.update(_read_current(path, lang, path.stat().st_mtime_ns))
    return translated


@cache
def _catalog(path: Path, lang: str, mtime_ns: int) -> Catalog:
    """A schema catalog, read once per process and only read from, never changed: the site
    counts what it translates (:func:`coverage`) before its languages' processes part, and
    the translated pages read it again (:func:`_read_current`); parsing gendoc's Chinese
    catalogs took a tenth of a second each time."""
    return read_catalog(path, lang)


@cache
def _read_current(path: Path, lang: str, mtime_ns: int) -> dict[str, str]:
    """The current translations of one catalog, each with no link its paragraph lacks."""
    return {
        m.id: unlinked(m.id, m.string)
        for m in _catalog(path, lang, mtime_ns)
        if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m gendoc.catalogs.schema_text LANG...``: update the schema catalogs."""
    from gendoc.collect import installed

    reference = installed.reference(with_examples=False)
    for lang in argv if argv is not None else sys.argv[1:]:
        for path in update_all(reference, templates_root(), lang):
            print(f"updated {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
