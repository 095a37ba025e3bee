"""Display: how each value of the model reads, in one place.

A tag, option, severity, part, domain, version or name becomes display text
here and nowhere else; :mod:`gendoc.present.filters` registers these functions,
each under its own name, as the Jinja filters that every template uses
(documents, site pages, ``diff``, ``audit`` and ``check`` output). Labels are
gettext messages, looked up in the translations the display was made with.

Escaping of schema-supplied strings happens here too. Names are escaped
for the context they land in: :func:`md_name` for Markdown text (a name that
is a plain identifier is left as it is, so the committed references do not
change; anything else has every character that could open Markdown or HTML
syntax written as a character reference), :func:`markupsafe.escape` inside
HTML (:func:`element_text` where a template shared by the documents and the
site writes them). Schema prose goes through :meth:`Display.schema_text`, which
first cleans it (:func:`~gendoc.catalogs.schema_text.schema_source`: line
endings normalised, control characters and references to them dropped, so
nothing can end the HTML block it lands in) and renders it with
:mod:`gendoc.present.schema_render` (through an allow-list, never as
raw HTML; remembered across runs by :mod:`gendoc.present.schema_html_cache`).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable
from itertools import groupby
from operator import itemgetter
from typing import Any
from urllib.parse import quote

from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from gendoc.catalogs.i18n import N_, NP_, Message, Quoted, Term, translated_args
from gendoc.catalogs.schema_text import SchemaText, schema_source
from gendoc.catalogs.translated import substitute
from gendoc.model.compare import Change
from gendoc.model.reference import (
    Attribute,
    Differentiability,
    Option,
    Parameter,
    Schema,
    domain_label,
)
from gendoc.model.stats import tally
from gendoc.present import schema_html_cache
from gendoc.present.change_messages import PARTS, change_message

TAGS = {
    Differentiability.DIFFERENTIABLE: N_("differentiable"),
    Differentiability.NON_DIFFERENTIABLE: N_("non-differentiable"),
    Differentiability.UNDEFINED: N_("undefined"),
}
SEVERITIES = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}
SEVERITY_COUNTS = {
    "error": NP_("%(num)s error", "%(num)s errors"),
    "warning": NP_("%(num)s warning", "%(num)s warnings"),
    "info": NP_("%(num)s info", "%(num)s info"),
}
_OPTIONAL, _VARIADIC, _HETEROGENEOUS = N_("optional"), N_("variadic"), N_("heterogeneous")
# The list attribute types, as "list of %(type)s" names them: a language may name a list by its
# element type instead (Chinese: "int 列表", not "ints 列表").
_LIST_TYPES = {
    name: name
    for name in (
        N_("floats"),
        N_("ints"),
        N_("strings"),
        N_("tensors"),
        N_("graphs"),
        N_("sparse_tensors"),
        N_("type_protos"),
    )
}
_MARKERS = (
    ("experimental", N_("experimental")),
    ("deprecated", N_("deprecated")),
    ("is_function", N_("function")),
)

# Characters that can open Markdown or HTML syntax inside a line (links,
# emphasis, code, tags, entities, table cells, attribute lists, headings).
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#!|<>&\"'~$\x00-\x1f\x7f]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _reference(match: re.Match[str]) -> str:
    """A character as a numeric reference; NUL, which HTML forbids, as U+FFFD."""
    return f"&#{ord(match.group()) or 0xFFFD};"


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")

ONNX_DOCS = "https://github.com/onnx/onnx/blob/{ref}/docs/"


def docs_base(onnx_version: str) -> str:
    """Where relative links in the schema text of an onnx version point.

    A release links to its tag; a development build (``1.24.0.dev20261026``,
    onnx-weekly) to ``main``.
    """
    release = onnx_version.split("+")[0]
    is_release = release.replace(".", "").isdigit()
    return ONNX_DOCS.format(ref=f"v{release}" if is_release else "main")


def md_escape(text: object) -> Markup:
    """``text`` as literal inline Markdown, safe inside HTML as well.

    Markup (already escaped, or written by gendoc) is returned unchanged.
    """
    if isinstance(text, Markup):
        return text
    return Markup(_MARKDOWN_SPECIAL.sub(_reference, str(text)))


def html_text(text: object) -> Markup:
    """``text`` as the content of an HTML element on one line.

    ``&``, ``<`` and ``>`` are escaped; a line break or other control character
    becomes a character reference, so a name cannot end the HTML block it is in.
    """
    if isinstance(text, Markup):
        return text
    escaped = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return Markup(_CONTROL.sub(_reference, escaped))


@pass_eval_context
def element_text(context: EvalContext, text: object) -> Markup:
    """``text`` as an HTML element's content, escaped as the rendering template escapes.

    An autoescaping template (the site's) escapes it as it escapes all its text, quotes
    included; any other (the documents') through :func:`html_text`. A macro that both
    kinds render (``templates/shared/``) writes names with it, so each output keeps the
    bytes it had when each layout wrote the name itself.
    """
    return escape(text) if context.autoescape else html_text(text)


def table_cell(text: object) -> Markup:
    """Markdown already escaped, made safe inside a pipe table's cell."""
    return Markup(str(text).replace("|", "\\|").replace("\n", " "))


def is_plain_name(name: str) -> bool:
    """A name that no Markdown or HTML reader can take for syntax."""
    return _PLAIN_NAME.fullmatch(name) is not None


def md_name(name: object) -> Markup:
    """A schema-supplied name for Markdown text: as it is when plain, else fully escaped."""
    text = str(name)
    return Markup(text) if is_plain_name(text) else md_escape(text)


def md_domain_label(domain: str) -> Markup:
    """A domain as the reports name it (``ai.onnx`` for the default one), for Markdown."""
    return md_name(domain_label(domain))


class Display:
    """The display text of model values in one language.

    ``translations`` supplies the labels of ``lang``; ``onnx_version`` decides where
    relative links in schema text point; ``hide_undefined`` leaves the
    undefined tag off parameters (``--undefined statement``).
    """

    def __init__(
        self,
        translations: gettext.NullTranslations,
        onnx_version: str = "",
        *,
        lang: str = "en",
        hide_undefined: bool = False,
        schema: SchemaText | Callable[[], SchemaText] | None = None,
    ) -> None:
        self.labels = translations
        self.lang = lang
        self.gettext: Callable[[str], str] = translations.gettext
        self.ngettext: Callable[[str, str, int], str] = translations.ngettext
        self.docs_base = docs_base(onnx_version) if onnx_version else ""
        self.hide_undefined = hide_undefined
        self._schema = schema
        self._schema_html: dict[str, str] = {}

    @property
    def schema(self) -> SchemaText | None:
        """The translated schema text, read the first time it is asked for when ``schema``
        was given as a function that reads it: the labels alone (the site's search panel on
        a rebuild) need none of the Chinese schema catalogs, a quarter of a second to read."""
        if callable(self._schema):
            self._schema = self._schema()
        return self._schema

    def tag(self, differentiability: Differentiability | str) -> str:
        return self.gettext(TAGS[Differentiability(differentiability)])

    def part(self, part: str) -> str:
        return self.gettext(PARTS[part])

    def severity(self, severity: object) -> str:
        return self.gettext(SEVERITIES[str(severity)])

    def severity_count(self, severity: object, count: int) -> str:
        """``2 errors``: how many findings of one severity."""
        return self.ngettext(*SEVERITY_COUNTS[str(severity)], count) % {"num": count}

    def domain_short(self, domain: str) -> Markup:
        """The short name of a domain for Markdown: ``ai.onnx (default)`` for the default one."""
        return md_name(domain) if domain else Markup(self.gettext("ai.onnx (default)"))

    def domain_long(self, domain: str) -> Markup:
        if not domain:
            return Markup(self.gettext("the default ONNX operator set"))
        return Markup(self.gettext("the '%(domain)s' operator set")) % {"domain": md_name(domain)}

    def availability(self, schema: Schema) -> Markup:
        """The version line: since when this version exists, or that it is experimental."""
        if schema.experimental:
            return Markup(self.gettext("No versioning is maintained for experimental operators."))
        values = {"version": schema.since_version, "domain": self.domain_long(schema.domain)}
        if schema.deprecated:
            message = N_(
                "This version of the operator has been deprecated since version %(version)s "
                "of %(domain)s."
            )
        else:
            message = N_(
                "This version of the operator has been available since version %(version)s "
                "of %(domain)s."
            )
        return Markup(self.gettext(message)) % values

    def markers(self, schema: Schema) -> list[str]:
        """Short notes on an operator version: experimental, deprecated, function."""
        return [self.gettext(label) for field, label in _MARKERS if getattr(schema, field)]

    def option_labels(self, param: Parameter) -> list[str]:
        """The option labels of a parameter: optional, or variadic (heterogeneous)."""
        if param.option is Option.OPTIONAL:
            return [self.gettext(_OPTIONAL)]
        if param.option is Option.VARIADIC:
            labels = [self.gettext(_VARIADIC)]
            if not param.is_homogeneous:
                labels.append(self.gettext(_HETEROGENEOUS))
            return labels
        return []

    def param_notes(self, param: Parameter) -> list[str]:
        """Options, then the tag (left off when undefined tags are only explained at the top)."""
        notes = self.option_labels(param)
        if not (self.hide_undefined and param.differentiability is Differentiability.UNDEFINED):
            notes.append(self.tag(param.differentiability))
        return notes

    def listed(self, items: Iterable[str]) -> str:
        """Items joined as this language lists them (Chinese: with the enumeration comma)."""
        items = iter(items)
        text = next(items, "")
        for item in items:
            text = self.gettext("%(list)s, %(item)s") % {"list": text, "item": item}
        return text

    def param_tags(self, param: Parameter) -> str:
        """`` (optional, differentiable)``, in this language's parentheses and commas."""
        notes = self.param_notes(param)
        return self.gettext(" (%(notes)s)") % {"notes": self.listed(notes)} if notes else ""

    def attr_type(self, attr: Attribute) -> str:
        if attr.type.endswith("s"):
            name = self.gettext(attr.type) if attr.type in _LIST_TYPES else attr.type
            return self.gettext("list of %(type)s") % {"type": name}
        return attr.type

    def attr_signature(self, attr: Attribute) -> str:
        shown = self.attr_type(attr)
        if attr.required:
            note = self.gettext("required")
        elif attr.default is not None:
            note = self.gettext("default is %(value)s") % {"value": attr.default}
        else:
            return shown
        return self.gettext("%(type)s (%(note)s)") % {"type": shown, "note": note}

    def differentiability_summary(self, schema: Schema) -> str:
        """The contents column: how much of the newest version is differentiable."""
        if not schema.parameters:
            return self.gettext("no inputs or outputs")
        counts = tally(schema.parameters)
        if counts.undefined == counts.total:
            return self.gettext("undefined")
        text = self.gettext("%(di)s/%(ni)s inputs, %(do)s/%(no)s outputs differentiable") % {
            "di": tally(schema.inputs).differentiable,
            "ni": len(schema.inputs),
            "do": tally(schema.outputs).differentiable,
            "no": len(schema.outputs),
        }
        if counts.undefined:
            return self.gettext("%(text)s (%(undefined)s undefined)") % {
                "text": text,
                "undefined": counts.undefined,
            }
        return text

    def schema_text(self, text: str) -> str:
        """Schema prose as safe HTML, translated paragraph by paragraph where a catalog can.

        A paragraph with no current translation (missing, or fuzzy because onnx
        changed it) is shown in English, marked, so a stale translation never is.
        The English text and each translation are cleaned (:func:`schema_source`)
        before anything else looks at them. Kept per text: a description is shown again in
        most versions of its operator (the site's pages ask some 20,000 times per language).
        """
        found = self._schema_html.get(text)
        if found is None:
            found = self._schema_html[text] = self._schema_html_of(text)
        return found

    def _schema_html_of(self, text: str) -> str:
        text = schema_source(text)
        if self.schema is None:
            return schema_html_cache.html(text, self.docs_base)
        html = []
        for translated, run in groupby(self.schema.paragraphs(text), key=itemgetter(1)):
            # The paragraphs are dedented already; the opening line break keeps the renderer's
            # dedent from taking the indentation off the first line alone (an indented code
            # block that opens a text stays one, as in English).
            shown = schema_source("\n" + "\n\n".join(p for p, _ in run))
            body = schema_html_cache.html(shown, self.docs_base)
            if translated:
                html.append(body)
            else:
                note = self.gettext("Not translated yet: the English original.")
                html.append(
                    f'<div class="gd-untranslated" lang="en">\n'
                    f'<p class="gd-untranslated-note" lang="{self.lang}">{note}</p>\n'
                    f"{body}\n</div>"
                )
        return "\n".join(html)

    def message(self, message: Any) -> Markup:
        """An audit message (an id and its arguments) for Markdown: the arguments escaped."""
        args = translated_args(message.args, self.gettext)
        args = {k: md_escape(v) if isinstance(v, str) else v for k, v in args.items()}
        return Markup(substitute(self.gettext(message.id), args))

    def message_text(self, message: Message) -> str:
        """A message in this language as plain text (the text reports)."""
        return message.format(self.gettext)

    def translate(self, label: str) -> str:
        """A label (a term the model or the evidence names) in this language, as text: where
        autoescape is on it is escaped, unlike the templates' ``gettext()``, whose
        translation is taken as markup."""
        return self.gettext(label)

    def change(self, change: Change, known: frozenset[str] = frozenset()) -> str:
        """A change between two references, one Markdown line in this language, names and
        values as code spans; long type lists are compacted against ``known``, the
        comparison's element types."""
        return change_message(change, code_span, self.labels, known)

    def change_text(self, change: Change, known: frozenset[str] = frozenset()) -> str:
        """:meth:`change` as plain text (GitHub's annotations)."""
        return change_message(change, str, self.labels, known)

    def said(self, message: Message) -> Markup:
        """A message (a source's reason, its detail) as HTML in this language: every argument
        escaped, and the text quoted from a source (:class:`~gendoc.catalogs.i18n.Quoted`)
        marked as the English it is on a page of another language."""

        def html(value: object) -> object:
            if isinstance(value, Message):
                return self.said(value)
            if isinstance(value, Quoted):
                shown = escape(value)
                return shown if self.lang == "en" else Markup(f'<span lang="en">{shown}</span>')
            if isinstance(value, Term):
                return escape(self.gettext(value))
            return escape(value) if isinstance(value, str) else value

        args = {k: html(v) for k, v in message.args.items()}
        return Markup(substitute(str(escape(self.gettext(message.id))), args))

    def location(self, finding: Any) -> str:
        """Where a finding is: ``ai.onnx ArgMax-13 output reduced``, in this language."""
        where = f"{domain_label(finding.domain)} {finding.op}-{finding.version}"
        if finding.parameter is None:
            return where
        return f"{where} {self.part(finding.parameter.part.value)} {finding.parameter.name}"


def version_links(schemas: Iterable[Schema], changelog: str) -> str:
    """Links to versions in the changelog; a name that is not plain is percent-encoded."""
    return ", ".join(
        f"[{s.since_version}]({changelog}#{quote(s.versioned_name, safe='')})" for s in schemas
    )


_ZWJ = "\u200d"


def _unlinked(text: str) -> str:
    """``text`` with a zero-width joiner after every ``@`` and ``<``.

    The joiner is invisible, yet GitHub no longer reads ``@name`` as a mention
    (which would notify that person or team) nor ``<`` as the start of a tag or
    of an HTML comment: text from a schema cannot reach anyone or hide what follows.
    """
    return text.replace("@", f"@{_ZWJ}").replace("<", f"<{_ZWJ}")


def md_inert(text: object) -> Markup:
    """:func:`md_escape`, and no ``@`` mention: for Markdown that GitHub shows (a comment)."""
    return Markup(str(md_escape(text)).replace("@", f"@{_ZWJ}"))


def fenced(text: object, language: str = "text") -> str:
    """``text`` as a fenced code block that no run of backticks in it can close."""
    body = str(text)
    longest = max((len(run) for run in re.findall(r"`{3,}", body)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{language}\n{body}\n{fence}"


def code_block(text: object) -> str:
    """``text`` as a fenced code block that nothing in it can close, mentions and tags inert."""
    return fenced(_unlinked(str(text)))


def code_span(text: object) -> str:
    """``text`` as one Markdown code span, whatever backticks or line breaks it holds.

    Meant for what GitHub shows: mentions and tags are made inert (:func:`_unlinked`).
    """
    flat = _unlinked(" ".join(str(text).splitlines()))
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def github_data(text: object) -> str:
    """The message of a GitHub Actions workflow command: one line whatever ``text`` holds."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: object) -> str:
    """A property value (``title=``) of a workflow command."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")
