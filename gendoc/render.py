"""Render: configure Jinja2 and turn the model into documents.

All layout lives in ``templates/``; this module only picks the template of
each document, hands it the views and registers the formatting filters.
A user's ``--templates`` folder is searched first, so any template (and
any message catalog) can be overridden by a file of the same name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jinja2

from gendoc import __version__, schema_html
from gendoc.cache import template_cache
from gendoc.display import Display
from gendoc.errors import UsageError
from gendoc.i18n import LANGUAGES, translations
from gendoc.model import Reference
from gendoc.resources import templates_root
from gendoc.styles import STYLES

UNDEFINED_MODES = ("tag", "statement")


@dataclass(frozen=True)
class Document:
    """One output file: its name, which part of the model it shows, and how.

    ``kind`` is ``Operators`` (one entry per operator, newest version first)
    or ``Changelog`` (every version, by operator set version); it names the
    template and the view the template iterates over.
    """

    filename: str
    kind: str
    ml: bool
    changelog: str

    @property
    def template(self) -> str:
        return f"{self.kind}.md.j2"


DOCUMENTS = (
    Document("Operators.md", "Operators", ml=False, changelog="Changelog.md"),
    Document("Changelog.md", "Changelog", ml=False, changelog="Changelog.md"),
    Document("Operators-ml.md", "Operators", ml=True, changelog="Changelog-ml.md"),
    Document("Changelog-ml.md", "Changelog", ml=True, changelog="Changelog-ml.md"),
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


@cache
def display(options: RenderOptions, onnx_version: str = "") -> Display:
    """The display text of a style and language: labels, and translated schema text."""
    lang = options.lang if STYLES[options.style].translated else "en"
    schema = None
    if options.schema_translation and lang != "en":
        from gendoc.schema_catalog import schema_text  # Babel: only for translated schema text

        schema = schema_text(lang, options.templates)
    return Display(
        translations(lang, options.templates),
        onnx_version,
        lang=lang,
        hide_undefined=options.undefined == "statement",
        schema=schema,
    )


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
    env.filters.update(STYLES[options.style].filters(shown))
    return env


def autoescaping(env: jinja2.Environment) -> jinja2.Environment:
    """``env`` with autoescape on, for HTML; its compiled templates are kept apart.

    Jinja writes the escaping into a template's compiled code, and its bytecode
    cache knows only the template's name and source: sharing ``env``'s cache,
    a template used by both (``cli/_audit.j2``) would run as whichever
    environment compiled it first, unescaped in HTML or escaped in Markdown.
    """
    return env.overlay(autoescape=True, bytecode_cache=template_cache(f"{_SETTINGS_KEY}-html"))


def render_document(reference: Reference, document: Document, options: RenderOptions) -> str:
    """Render one of the four documents of a reference."""
    part = reference.select(ml=document.ml)
    env = environment(options, reference.onnx_version)
    template = env.get_template(f"{options.style}/{document.template}")
    context = {
        "reference": part,
        "changelog_file": document.changelog,
        "ml": document.ml,
        "examples": part.examples,
        "samples": part.samples,
        "options": options,
        **STYLES[options.style].context(part, document.kind),
    }
    return template.render(context)


def render_documents(reference: Reference, options: RenderOptions) -> dict[str, str]:
    """All four documents, by file name."""
    with schema_html.remembered():
        return {doc.filename: render_document(reference, doc, options) for doc in DOCUMENTS}


def render_report(
    template: str, lang: str = "en", templates: Path | None = None, **context: object
) -> str:
    """A text report (``diff``, ``audit`` or ``check`` output) from a template in ``cli/``."""
    env = environment(RenderOptions(lang=lang, templates=templates))
    return env.get_template(template).render(context)
