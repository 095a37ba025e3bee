"""Message catalogs: gettext ``.po`` files, read with Babel.

Every label gendoc writes is an English msgid, marked ``_()`` in the
templates and ``N_()`` in Python, so ``make catalogs`` (``pybabel extract``
then ``update``) finds every message and every unused one. A catalog is
``templates/locale/<lang>/LC_MESSAGES/<domain>.po``: ``gendoc`` holds the
labels, ``schema-<domain>`` the translated schema text. English needs no
catalog: a msgid is its own English text, and a message missing from a
catalog falls back to it. A ``--templates`` folder may hold a catalog of the
same name; it overrides only the messages it translates.

``.po`` files are compiled in memory when first used, fuzzy entries left
out, so an outdated translation is never shown. Every translation is
checked on the way (:func:`checked`): a catalog is data, and its text can
neither run code through a placeholder nor add markup its msgid lacks.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from gendoc.catalogs.translated import check, fields, neutralised, substitute
from gendoc.errors import UsageError
from gendoc.storage.resources import templates_root

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

LANGUAGES = ("en", "zh")
MESSAGES = "gendoc"
"""The gettext domain of gendoc's own labels."""
ENGLISH = gettext.NullTranslations()
"""No catalog: every message is its own English text."""


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated where it is displayed."""
    return message


class Term(str):
    """A placeholder value that is itself a word of the catalog, such as a tag.

    ``differentiable`` inside a Chinese sentence must read 可微: a translated
    message translates its terms with the same catalog. Everywhere else (the
    English text, the JSON) a term is the plain string it is.
    """

    __slots__ = ()


class Quoted(str):
    """A placeholder value quoted from a source as it is: an exception's message, a torch
    call, a test case's name. Never translated; a page marks it ``lang="en"``."""

    __slots__ = ()


Arg: TypeAlias = "str | int | float | Message"
"""A placeholder's value: plain, so that any renderer (or a translator's catalog) can use it;
or a :class:`Message` itself (``unavailable: {reason}``), said in the same language."""


@cache
def placeholders(template: str) -> frozenset[str]:
    """The names of the fields of a template: ``{old} in {before}``."""
    return frozenset(name for name, _ in fields(template, "brace"))


@dataclass(frozen=True)
class Message:
    """A template (its own message id) and the arguments it is formatted with.

    A text gendoc writes in every language (an audit finding, an evidence
    source's status line) carries no finished sentence but this: the English
    template, ``N_``-marked so that ``pybabel extract`` finds it, and the
    values of its placeholders. English formats the template as it is; a
    translated page formats ``gettext(message.id)`` with the same arguments.

    Arguments are stored as sorted pairs so that a message is immutable,
    hashable and picklable (it travels back from worker processes).
    Construction checks that the arguments name exactly the template's
    placeholders: a misspelled placeholder fails where the message is made,
    not when a translated page is rendered.
    """

    id: str
    arguments: tuple[tuple[str, Arg], ...] = ()

    def __post_init__(self) -> None:
        given = {name for name, _ in self.arguments}
        if given != placeholders(self.id):
            raise ValueError(
                f"message {self.id!r} has placeholders {sorted(placeholders(self.id))}, "
                f"given {sorted(given)}"
            )

    def __bool__(self) -> bool:
        """An empty message (:data:`NOTHING`) says nothing: ``{% if detail %}`` skips it."""
        return bool(self.id)

    @property
    def args(self) -> dict[str, Arg]:
        return dict(self.arguments)

    def format(self, translate: Callable[[str], str] | None = None) -> str:
        """The message in the language of ``translate`` (a gettext function); English without."""
        template = self.id if translate is None else translate(self.id)
        return substitute(template, translated_args(self.args, translate))

    @property
    def text(self) -> str:
        """The English text."""
        return self.format()

    def to_dict(self) -> dict[str, object]:
        """The JSON form: the English text, and the id and arguments to translate it."""
        return {"message": self.text, "message_id": self.id, "args": self.args}


def say(template: str, **args: Arg) -> Message:
    """A message from an ``N_``-marked template and its arguments."""
    return Message(template, tuple(sorted(args.items())))


NOTHING = Message("")
"""The message of a reason or detail a source did not give."""


def quoted(text: str) -> Message:
    """``text`` quoted from a source as it is (:class:`Quoted`), where a message goes."""
    return Message("{text}", (("text", Quoted(text)),))


def listed(items: Sequence[Message], separator: str = N_("{items}, {item}")) -> Message:
    """``items`` as one message, joined by each language's list ``separator``."""
    joined = items[0]
    for item in items[1:]:
        joined = say(separator, items=joined, item=item)
    return joined


def translated_args(
    args: Mapping[str, object], translate: Callable[[str], str] | None
) -> dict[str, object]:
    """``args`` in the language of ``translate`` (English without): every :class:`Term`
    translated, every :class:`Message` formatted."""

    def said(value: object) -> object:
        if isinstance(value, Message):
            return value.format(translate)
        if isinstance(value, Term) and translate is not None:
            return translate(value)
        return value

    return {k: said(v) for k, v in args.items()}


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form; ``ngettext`` picks the form where it is displayed."""
    return singular, plural


def catalog_path(root: Path, lang: str, domain: str = MESSAGES) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, lang: str) -> Catalog:
    """A ``.po`` file as a Babel catalog; a broken one is one line naming the file and line."""
    from babel.messages.pofile import PoFileError, read_po  # English needs no catalog: lazy

    try:
        with path.open("rb") as f:
            return read_po(f, locale=locale_of(lang), abort_invalid=True)
    except PoFileError as exc:  # Babel counts lines from 0 and says so at the end
        problem = re.sub(r" on -?\d+$", "", str(exc))
        raise UsageError(f"{path}:{exc.lineno + 1}: invalid message catalog: {problem}") from None
    except (UnicodeDecodeError, ValueError, LookupError) as exc:  # LookupError: a charset
        raise UsageError(f"{path}: invalid message catalog: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read message catalog {path}: {exc.strerror or exc}") from None


def locale_of(lang: str) -> str:
    return {"zh": "zh_Hans_CN"}.get(lang, lang)


def checked(catalog: Catalog, path: Path) -> Catalog:
    """``catalog`` with every shown translation checked and its markup neutralised.

    A translation whose placeholders are not exactly its msgid's is one line
    naming the file and entry (see :mod:`gendoc.catalogs.translated`); fuzzy entries are
    never shown, so they are left as they are.
    """
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        msgids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            problem = check(msgids, text) if text else None
            if problem:
                raise UsageError(f"{path}:{message.lineno}: msgid {_short(msgids[0])}: {problem}")
        shown = tuple(neutralised(msgids, text) if text else text for text in strings)
        message.string = shown if isinstance(message.string, tuple) else shown[0]
    return catalog


def _short(text: str) -> str:
    """A msgid for a one-line message: quoted, escaped, at most 60 characters of it."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


@cache
def _compiled(path: Path, lang: str, mtime_ns: int) -> bytes:
    """The ``.mo`` bytes of a checked catalog, kept per file version for the process's life."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, checked(read_catalog(path, lang), path), use_fuzzy=False)
    return buffer.getvalue()


def translations(
    lang: str, templates: Path | None = None, domain: str = MESSAGES
) -> gettext.NullTranslations:
    """The translations of one language: the user's catalog first, then gendoc's, then English."""
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    chain = gettext.NullTranslations()
    for root in (templates_root(), templates):
        if root is None:
            continue
        path = catalog_path(root, lang, domain)
        try:
            mtime = path.stat().st_mtime_ns
        except FileNotFoundError:
            continue
        try:
            found = gettext.GNUTranslations(io.BytesIO(_compiled(path, lang, mtime)))
        except (ValueError, OSError) as exc:  # a Plural-Forms header gettext cannot read
            raise UsageError(f"{path}: invalid message catalog: {exc}") from None
        found.add_fallback(chain)
        chain = found
    return chain


def update_catalog(template: Catalog, path: Path, lang: str) -> Catalog:
    """Merge ``template`` into the catalog at ``path`` (created when missing).

    Babel's update keeps every translation whose msgid still exists and
    marks the closest old translation *fuzzy* for a changed message, so a
    stale translation is kept for the translator but never shown. The
    creation date stays, so an update with nothing new changes no byte.
    """
    from babel.messages.catalog import Catalog

    catalog = read_catalog(path, lang) if path.is_file() else Catalog(locale=locale_of(lang))
    catalog.domain = template.domain
    catalog.update(template, update_creation_date=False)
    catalog.obsolete.clear()
    return catalog


def write_catalog(catalog: Catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, no_location=True, ignore_obsolete=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m gendoc.catalogs.i18n POT LANG...``: merge extracted labels into the catalogs."""
    import sys

    from babel.messages.pofile import read_po

    pot, *langs = argv if argv is not None else sys.argv[1:]
    with open(pot, "rb") as f:
        template = read_po(f)
    template.domain = MESSAGES
    for lang in langs:
        path = catalog_path(templates_root(), lang)
        write_catalog(update_catalog(template, path, lang), path)
        print(f"updated {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def renamed(message: Message, names: Mapping[str, str], field: str) -> Message:
    """``message`` with the value of ``field`` replaced through ``names`` (when it is there)."""
    value = message.args.get(field)
    if not isinstance(value, str) or value not in names:
        return message
    return say(message.id, **{**message.args, field: names[value]})
