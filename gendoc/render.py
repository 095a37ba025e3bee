"""Render: configure Jinja2 and turn the model into documents.

All layout lives in ``templates/``; this module only picks the template of
each document, hands it the views and registers the formatting filters.
A user's ``--templates`` folder is searched first, so any template (and
any message catalog) can be overridden by a file of the same name.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jinja2

from gendoc import onnx_format, views
from gendoc.cache import template_cache
from gendoc.errors import UsageError
from gendoc.model import Reference
from gendoc.stats import tally_schemas

STYLES = ("gendoc", "onnx")
LANGUAGES = ("en", "zh")
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

    def __post_init__(self) -> None:
        for value, allowed, what in (
            (self.style, STYLES, "style"),
            (self.lang, LANGUAGES, "language"),
            (self.undefined, UNDEFINED_MODES, "undefined mode"),
        ):
            if value not in allowed:
                raise UsageError(f"unknown {what} {value!r}; choose one of {', '.join(allowed)}")
        if self.templates is not None and not self.templates.is_dir():
            raise UsageError(f"templates folder not found: {self.templates}")


def builtin_templates() -> Path:
    """The templates shipped with gendoc: inside the wheel, or the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "templates", here.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise UsageError("gendoc's own templates are missing from this installation")


def _search_path(options: RenderOptions) -> list[str]:
    folders = [builtin_templates()]
    if options.templates is not None:
        folders.insert(0, options.templates)
    return [str(f) for f in folders]


def load_messages(lang: str, templates: Path | None = None) -> dict[str, str]:
    """The message catalog of one language: every label gendoc writes itself."""
    folders = [templates] if templates is not None else []
    folders.append(builtin_templates())
    for folder in folders:
        path = folder / "i18n" / f"{lang}.toml"
        if path.is_file():
            with path.open("rb") as f:
                return tomllib.load(f)
    raise UsageError(f"no message catalog for language {lang!r}")


@cache
def _environment(search_path: tuple[str, ...], style: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        bytecode_cache=template_cache(),
        autoescape=False,  # the output is Markdown; schema text is escaped by filters
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(onnx_format.FILTERS)
    if style == "gendoc":
        # imported here: markdown-it-py is not needed to reproduce onnx's layout
        from gendoc import gendoc_format

        env.filters.update(gendoc_format.FILTERS)
    return env


def environment(options: RenderOptions) -> jinja2.Environment:
    return _environment(tuple(_search_path(options)), options.style)


def render_document(reference: Reference, document: Document, options: RenderOptions) -> str:
    """Render one of the four documents of a reference."""
    part = reference.select(ml=document.ml)
    template = environment(options).get_template(f"{options.style}/{document.template}")
    context = {
        "reference": part,
        "changelog_file": document.changelog,
        "ml": document.ml,
        "examples": part.examples,
        "samples": part.samples,
        "options": options,
    }
    if document.kind == "Changelog":
        context["changelog"] = views.changelog_index(part)
    elif options.style == "onnx":
        context["operators"] = views.onnx_operator_index(part)
    else:
        context["operators"] = views.operator_index(part)
    if options.style == "onnx":
        context["title"] = f"Operator {'Schemas' if document.kind == 'Operators' else 'Changelog'}"
    else:
        from gendoc.gendoc_format import docs_base

        context["t"] = load_messages(options.lang, options.templates)
        context["docs_base"] = docs_base(reference.onnx_version)
        context["counts"] = tally_schemas(part.schemas)
    return template.render(context)


def render_documents(reference: Reference, options: RenderOptions) -> dict[str, str]:
    """All four documents, by file name."""
    return {doc.filename: render_document(reference, doc, options) for doc in DOCUMENTS}
