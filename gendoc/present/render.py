"""Render: configure Jinja2 and turn the model into documents.

All layout lives in ``templates/``; this module only picks the template of
each document, hands it the views and installs the formatting filters
(:mod:`gendoc.present.filters`).
A user's ``--templates`` folder is searched first, so any template (and
any message catalog) can be overridden by a file of the same name. A
template that does not compile or fails while rendering is one line naming
its file and line (:func:`template_errors`).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from types import CodeType, TracebackType
from typing import Any

import jinja2
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from gendoc import __version__
from gendoc.catalogs.i18n import LANGUAGES, translations
from gendoc.errors import UsageError
from gendoc.model.reference import Reference
from gendoc.present import schema_html_cache
from gendoc.present.display import Display
from gendoc.present.filters import document_filters
from gendoc.present.outputs import CHANGELOG, OPERATORS, Output
from gendoc.present.styles import STYLES
from gendoc.present.visible import visible
from gendoc.storage.cache import template_cache
from gendoc.storage.resources import templates_root

UNDEFINED_MODES = ("tag", "statement")


@dataclass(frozen=True)
class Document:
    """One file ``gendoc build`` writes: its name, the output it is (:mod:`.outputs`), and
    which part of the model it shows."""

    filename: str
    output: Output
    ml: bool
    changelog: str


DOCUMENTS = (
    Document("Operators.md", OPERATORS, ml=False, changelog="Changelog.md"),
    Document("Changelog.md", CHANGELOG, ml=False, changelog="Changelog.md"),
    Document("Operators-ml.md", OPERATORS, ml=True, changelog="Changelog-ml.md"),
    Document("Changelog-ml.md", CHANGELOG, ml=True, changelog="Changelog-ml.md"),
)


@dataclass(frozen=True)
class RenderOptions:
    style: str = "gendoc"
    lang: str = "en"
    undefined: str = "tag"
    templates: Path | None = None
    schema_translation: bool = True
    """Show translated schema text where the catalogs have it (any language but English)."""

    def __post_init__(self) -> None:
        for value, allowed, what in (
            (self.style, tuple(STYLES), "style"),
            (self.lang, LANGUAGES, "language"),
            (self.undefined, UNDEFINED_MODES, "undefined mode"),
        ):
            if value not in allowed:
                raise UsageError(f"unknown {what} {value!r}; choose one of {', '.join(allowed)}")
        if self.templates is not None and not self.templates.is_dir():
            raise UsageError(f"templates folder not found: {self.templates}")


def search_path(templates: Path | None) -> tuple[str, ...]:
    """The user's template folder first, then gendoc's own."""
    folders = [templates_root()]
    if templates is not None:
        folders.insert(0, templates)
    return tuple(str(f) for f in folders)


_SETTINGS = {
    "autoescape": False,  # the output is Markdown; schema strings are escaped by filters
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
    "undefined": jinja2.StrictUndefined,
    "extensions": ["jinja2.ext.i18n"],
}
# Compiled templates depend on these settings and on gendoc's version, not only on the
# template's source (which is all Jinja's bytecode cache compares), so both key the cache.
_SETTINGS_TEXT = f"{__version__} {sorted(_SETTINGS.items())!r}"
_SETTINGS_KEY = hashlib.sha256(_SETTINGS_TEXT.encode()).hexdigest()[:12]


# What rendering a broken template can raise besides Jinja's own errors: a filter or an
# operation given a value it cannot take ({{ 1 + "a" }}, {{ x.missing.attr }}).
_RUNTIME_ERRORS = (
    jinja2.TemplateError,
    ArithmeticError,
    AttributeError,
    LookupError,
    TypeError,
    ValueError,
    RecursionError,
)


@contextlib.contextmanager
def template_errors() -> Iterator[None]:
    """A template that cannot be compiled or fails while rendering is one line naming its
    file and line (a :class:`UsageError`), gendoc's own templates and a user's alike.

    An error raised outside any template is gendoc's, and goes on as it is.
    """
    try:
        yield
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or exc.name or "template"
        raise UsageError(f"{where}:{exc.lineno}: {_one_line(exc.message or str(exc))}") from None
    except _RUNTIME_ERRORS as exc:
        found = _template_line(exc.__traceback__)
        if found is None:
            raise
        message = f"{type(exc).__name__}: {_one_line(str(exc))}"
        raise UsageError(f"{found[0]}:{found[1]}: {message}") from None


def _template_line(tb: TracebackType | None) -> tuple[str, int] | None:
    """The innermost template file and line in a traceback (Jinja rewrites its frames so
    that they carry the template's file name and line)."""
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".j2") or filename.endswith(".html"):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _one_line(text: str) -> str:
    return " ".join(text.split())


@cache
def display(options: RenderOptions, onnx_version: str = "") -> Display:
    """The display text of a style and language: labels, and translated schema text."""
    lang = options.lang if STYLES[options.style].translated else "en"
    schema = None
    if options.schema_translation and lang != "en":
        from gendoc.catalogs.schema_text import (
            schema_text,  # Babel: only for translated schema text
        )

        schema = partial(schema_text, lang, options.templates)  # read when first shown
    return Display(
        translations(lang, options.templates),
        onnx_version,
        lang=lang,
        hide_undefined=options.undefined == "statement",
        schema=schema,
    )


_MOST_KEPT = 50_000
"""Renders :func:`once` keeps per environment before it starts again (``mkdocs serve`` runs
for hours, and an edited template makes new macros)."""


def once() -> Callable[..., Markup]:
    """``once(macro, *args)`` for the templates: what ``macro(*args)`` renders, rendered once
    per environment (one style and language) and kept, for a macro whose output depends on
    its arguments alone, which must be hashable (their types are part of the key:
    ``Markup("<b>")`` equals ``"<b>"``). An operator's attributes and type constraints
    repeat from version to version: the site's operator pages show 1,309 attributes per
    language, 485 of them different, and 942 type constraints, 341 different."""
    made: dict[tuple[Any, ...], Markup] = {}

    def render(macro: Callable[..., Markup], *args: Any) -> Markup:
        key = (macro, *args, *map(type, args))
        found = made.get(key)
        if found is None:
            if len(made) >= _MOST_KEPT:
                made.clear()
            found = made[key] = macro(*args)
        return found

    return render


@cache
def environment(options: RenderOptions, onnx_version: str = "") -> jinja2.Environment:
    """The Jinja environment of a style and language, made once per process."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search_path(options.templates))),
        bytecode_cache=template_cache(_SETTINGS_KEY),
        **_SETTINGS,
    )
    shown = display(options, onnx_version)
    env.install_gettext_translations(shown.labels, newstyle=True)
    env.globals["gettext"] = env.globals["_"] = _gettext(shown.labels)
    env.globals["pgettext"] = _pgettext(shown.labels)
    env.globals["once"] = once()
    env.filters.update(document_filters(options.style, shown))
    return env


def _gettext(labels: Any) -> Callable[..., str]:
    """Jinja's new-style ``gettext`` (and ``_``) of ``labels``, the same strings by a shorter
    path: Jinja's own goes through the context twice per call (``_`` looks ``gettext`` up,
    which calls the catalog), about 130,000 calls in a site build. A label without
    variables is formatted once per escaping mode and reused (a string is immutable)."""
    formatted: dict[tuple[str, bool], str] = {}

    @jinja2.pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, **variables: Any) -> str:
        if not variables:
            key = (string, eval_ctx.autoescape)
            found = formatted.get(key)
            if found is None:
                found = formatted[key] = _format(labels.gettext(string), eval_ctx.autoescape, {})
            return found
        return _format(labels.gettext(string), eval_ctx.autoescape, variables)

    return gettext


def _pgettext(labels: Any) -> Callable[..., str]:
    """Jinja's new-style ``pgettext`` of ``labels`` by the same shorter path as
    :func:`_gettext` (a translation in context: "between the items of a list"...)."""

    @jinja2.pass_eval_context
    def pgettext(eval_ctx: EvalContext, context: str, string: str, **variables: Any) -> str:
        variables.setdefault("context", context)
        return _format(labels.pgettext(context, string), eval_ctx.autoescape, variables)

    return pgettext


def _format(text: str, autoescape: bool, variables: dict[str, Any]) -> str:
    """A translated label as Jinja's new-style gettext formats it: always as a format string,
    its variables escaped where the template escapes. Escaped here, then formatted as a plain
    string: the same text as ``Markup(text) % variables``, without the wrapper markupsafe
    puts around each variable (some 30,000 labels per language in a site build)."""
    if not autoescape:
        return text % variables
    return Markup(text % {name: _escaped(value) for name, value in variables.items()})


def _escaped(value: Any) -> Any:
    """``value`` escaped for HTML, or as it is where it is a number (``%(count)d``) or markup."""
    return value if isinstance(value, int | float) else _escaped_once(value)


def _escaped_once(value: Any, /) -> Markup:
    """What an HTML template writes for ``{{ value }}``: markupsafe's ``escape``, but a value
    that is markup already is written as it is, not copied (see :class:`HtmlTemplate`)."""
    return value if type(value) is Markup else escape(value)


class HtmlTemplate(jinja2.Template):
    """A template of an environment with autoescape on, whose output expressions pass markup on.

    Jinja compiles ``{{ value }}`` into ``escape(value)``, and for a value that is markup
    already (a macro's output, a rendered schema text) markupsafe's ``escape`` makes
    ``Markup(value.__html__())``: a copy of the same text. A page writes its macros' output
    level by level, so each level copied what the levels below made (112,000 such values on
    a language's pages of the site). Markup is immutable: the value itself is the same
    output. The template's code is Jinja's, unchanged; only the name its functions look
    ``escape`` up by is bound here, when the template is made from its code."""

    @classmethod
    def from_code(
        cls,
        environment: jinja2.Environment,
        code: CodeType,
        globals: MutableMapping[str, Any],
        uptodate: Callable[[], bool] | None = None,
    ) -> jinja2.Template:
        template = super().from_code(environment, code, globals, uptodate)
        template.root_render_func.__globals__["escape"] = _escaped_once
        return template


def autoescaping(env: jinja2.Environment) -> jinja2.Environment:
    """``env`` with autoescape on, for HTML; its compiled templates are kept apart.

    Jinja writes the escaping into a template's compiled code, and its bytecode
    cache knows only the template's name and source: sharing ``env``'s cache,
    a template used by both (``cli/_audit.j2``) would run as whichever
    environment compiled it first, unescaped in HTML or escaped in Markdown.
    """
    html = env.overlay(autoescape=True, bytecode_cache=template_cache(f"{_SETTINGS_KEY}-html"))
    html.template_class = HtmlTemplate
    return html


def render_document(reference: Reference, document: Document, options: RenderOptions) -> str:
    """Render one of the four documents of a reference."""
    part = reference.select(ml=document.ml)
    env = environment(options, reference.onnx_version)
    output = document.output
    context = {
        "reference": part,
        "changelog_file": document.changelog,
        "ml": document.ml,
        "examples": part.examples,
        "samples": part.samples,
        "options": options,
        **output.context(STYLES[options.style], part),
    }
    with template_errors():
        return env.get_template(f"{options.style}/{output.template}").render(context)


def render_documents(reference: Reference, options: RenderOptions) -> dict[str, str]:
    """All four documents, by file name."""
    with schema_html_cache.remembered():
        return {doc.filename: render_document(reference, doc, options) for doc in DOCUMENTS}


def render_report(
    output: Output, /, lang: str = "en", templates: Path | None = None, **data: object
) -> str:
    """A text report (``diff``, ``audit``, ``check`` or ``support`` output), one entry of the
    table of outputs: its template, given the context its builder makes of ``data``.

    It quotes documents, snapshots and schemas: their control characters come out as
    visible escapes (:func:`~gendoc.present.visible.visible`).
    """
    env = environment(RenderOptions(lang=lang, templates=templates))
    with template_errors():
        return visible(env.get_template(output.template).render(output.context(**data)))
