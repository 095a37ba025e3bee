"""The table of outputs: every kind of file or report gendoc renders from a template.

An entry says what an output is called, which template writes it, which function builds
the template's context, and whether it is written once per language. A new output is one
entry and its template; nothing else branches on what it is.

The table is one registry, :data:`OUTPUTS`, filled stage by stage: this module lists the
documents and the reports the presentation stage writes; the audit adds its reports
(:mod:`gendoc.audit.report`) and the site its pages (:mod:`gendoc.site.page_table`) when
they are imported, since an earlier stage never imports a later one. What a builder takes
depends on the group: a document's, the style and the reference; a report's, the data the
command hands over; a site page's, the site's content, from which it lists every page of
its kind with that page's context.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gendoc.model.reference import Reference
    from gendoc.present.styles import Style


class Group(Enum):
    """Where an output goes, which says what its context builder takes."""

    DOCUMENT = "document"
    """A file ``gendoc build`` writes; the builder takes the style and the reference."""
    REPORT = "report"
    """A command's report; the builder takes the command's result as keywords."""
    SITE = "site"
    """Pages of the site; the builder takes the site's content and lists ``(path, context)``."""


@dataclass(frozen=True)
class Output:
    """One kind of output: its name, its template, its context builder, per language or not.

    ``per_language``: written in every language (a document, a site page under each
    language folder), or once (a site page at the site's root, the same for every reader:
    data such as JSON, whose template writes ``{{ ... | tojson }}``).
    """

    name: str
    group: Group
    template: str
    context: Callable[..., Any]
    per_language: bool = True


class Outputs:
    """The registry of outputs, in the order they were added; a name is taken once."""

    def __init__(self) -> None:
        self._entries: dict[str, Output] = {}

    def register(self, output: Output) -> Output:
        if output.name in self._entries:
            raise ValueError(f"an output named {output.name!r} is registered already")
        self._entries[output.name] = output
        return output

    def __getitem__(self, name: str) -> Output:
        return self._entries[name]

    def group(self, group: Group) -> list[Output]:
        """The outputs of ``group``, in the order they were added."""
        return [o for o in self._entries.values() if o.group is group]

    def key(self) -> str:
        """What the registered outputs are, for a cache key: names, templates, builders."""
        return repr(
            [
                (o.name, o.template, o.per_language, getattr(o.context, "__qualname__", ""))
                for o in self._entries.values()
            ]
        )

    @contextlib.contextmanager
    def registered(self, output: Output) -> Iterator[Output]:
        """``output`` in the table for the time of a block (a plug-in's own page, a test)."""
        self.register(output)
        try:
            yield output
        finally:
            del self._entries[output.name]


OUTPUTS = Outputs()


def _operators(style: Style, reference: Reference) -> dict[str, Any]:
    return style.operators(reference)


def _changelog(style: Style, reference: Reference) -> dict[str, Any]:
    return style.changelog(reference)


def _given(**data: Any) -> dict[str, Any]:
    """A report's context: what the command handed over, as it is."""
    return data


OPERATORS = OUTPUTS.register(Output("Operators", Group.DOCUMENT, "Operators.md.j2", _operators))
"""One entry per operator, newest version first (in the style's template folder)."""
CHANGELOG = OUTPUTS.register(Output("Changelog", Group.DOCUMENT, "Changelog.md.j2", _changelog))
"""Every version, by operator set version (in the style's template folder)."""
CHECK_REPORT = OUTPUTS.register(Output("check", Group.REPORT, "cli/check.txt.j2", _given))
DIFF_MARKDOWN = OUTPUTS.register(Output("diff", Group.REPORT, "cli/diff.md.j2", _given))
DIFF_ANNOTATIONS = OUTPUTS.register(
    Output("diff annotations", Group.REPORT, "cli/diff.github.j2", _given)
)
SUPPORT_MARKDOWN = OUTPUTS.register(Output("support", Group.REPORT, "cli/support.md.j2", _given))
SUPPORT_TEXT = OUTPUTS.register(Output("support text", Group.REPORT, "cli/support.txt.j2", _given))
