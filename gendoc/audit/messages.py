"""Translatable texts of the audit: English templates with named placeholders.

A report is read in English on a terminal and in Chinese on the site, so no
finding, rule title or reason carries a finished sentence. It carries a
:class:`Message`: the English template, which is also its gettext message
id, and the plain values for its placeholders. English output formats the
template as it is; a translated page fills ``gettext(message.id)`` with
the same arguments (:func:`gendoc.translated.substitute`: names only, never
``str.format`` on a translator's text).

Every template is written in the source as ``N_("...")``, so that
``pybabel extract -k N_ gendoc/audit`` finds them all without running the
audit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from gendoc.i18n import N_, translated_args
from gendoc.translated import fields, substitute

__all__ = ["N_", "Arg", "Message", "placeholders", "renamed", "say"]

Arg: TypeAlias = str | int | float
"""A placeholder's value: plain, so that any renderer (or a translator's catalog) can use it."""


@cache
def placeholders(template: str) -> frozenset[str]:
    """The names of the fields of a template: ``{old} in {before}``."""
    return frozenset(name for name, _ in fields(template, "brace"))


@dataclass(frozen=True)
class Message:
    """A template (its own message id) and the arguments it is formatted with.

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

    @property
    def args(self) -> dict[str, Arg]:
        return dict(self.arguments)

    def format(self, translate: Callable[[str], str] | None = None) -> str:
        """The message in the language of ``translate`` (a gettext function); English without."""
        if translate is None:
            return substitute(self.id, self.args)
        return substitute(translate(self.id), translated_args(self.args, translate))

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


def renamed(message: Message, names: Mapping[str, str], field: str) -> Message:
    """``message`` with the value of ``field`` replaced through ``names`` (when it is there)."""
    value = message.args.get(field)
    if not isinstance(value, str) or value not in names:
        return message
    return say(message.id, **{**message.args, field: names[value]})
