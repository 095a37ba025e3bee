"""Material's frame around each page, rendered cheaper, to the same bytes.

The navigation. Material writes the whole navigation into every page
(``partials/nav.html``, the sidebar: every section and page of mkdocs.yml's
nav). The operator, evidence, opset and runtime pages, nearly all of the
site's, are not in the navigation, so the sidebar marks none of them: for all
those of one folder, it is the same HTML, its links relative to that folder,
with whichever entries the gendoc plugin marks (an operator's domain index).
:func:`share_nav` keeps the navigation Material's template renders for such a
page, by folder and marked entries, and gives it to the next page with the
same. A page in the navigation, or a ``partials/nav.html`` of a custom theme
folder (which may show anything of the page), is rendered every time.

The labels. Material looks its words up with a macro that builds its table of
some 70 labels on each of the thirty lookups a page makes;
``partials/language.html`` of gendoc's theme folder uses :func:`theme_labels`
instead: the same words, each looked up once per build.

The rest of the frame of those pages is filled in from a stencil made once per kind of
page (:mod:`.frame_stencil`), which takes its folders and its key of a page outside the
navigation from here (:func:`theme_folders`, :func:`outside_navigation`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.runtime import Context

from gendoc.storage.resources import templates_root

NAV = "partials/nav.html"


def _templates_of(package: str) -> Path | None:
    """The folder of templates of an installed package (Material's, mkdocs')."""
    spec = importlib.util.find_spec(package)
    return Path(spec.origin).parent.resolve() / "templates" if spec and spec.origin else None


def _material() -> Path | None:
    """Material's folder of templates, where it is installed."""
    return _templates_of("material")


def theme_folders() -> tuple[Path, ...]:
    """The template folders whose every use of a page the site's frame is known to follow:
    gendoc's overrides, Material's, mkdocs' own (see :mod:`.frame_stencil`)."""
    folders = (templates_root() / "site" / "overrides", _material(), _templates_of("mkdocs"))
    return tuple(folder.resolve() for folder in folders if folder)


def share_nav(env: jinja2.Environment) -> None:
    """Make ``env``'s ``partials/nav.html``, when it is Material's own, render once per
    folder and marked entries for the pages outside the navigation."""
    try:
        template = env.get_template(NAV)
    except jinja2.TemplateError:
        return
    found = Path(template.filename or ".").resolve().parent.parent
    if found != _material():
        return
    render = template.root_render_func
    kept: dict[tuple[Any, ...], str] = {}

    def root(context: Context) -> Iterator[str]:
        key = outside_navigation(context)
        if key is None:
            yield from render(context)
            return
        found = kept.get(key)
        if found is None:
            found = kept[key] = "".join(render(context))
        yield found

    template.root_render_func = root


def _walk(items: list[Any]) -> Iterator[Any]:
    for item in items:
        yield item
        yield from _walk(getattr(item, "children", None) or [])


def outside_navigation(context: Context) -> tuple[Any, ...] | None:
    """What the navigation of a page outside it depends on: the folder its links are
    relative to and the entries marked active; ``None`` for a page in the navigation."""
    page, nav = context.get("page"), context.get("nav")
    url = getattr(page, "url", None)
    if url is None or nav is None or page in nav.pages:
        return None
    active = tuple(n for n, item in enumerate(_walk(nav.items)) if item.active)
    return (url[: url.rfind("/") + 1], context.get("base_url"), active)


def theme_labels(env: jinja2.Environment) -> Callable[[str], Callable[[str], str]]:
    """For a language, the lookup of Material's labels that its ``partials/language.html``
    does (the language's word, else the English one, else the key), each word kept."""

    @cache
    def labels(language: str) -> Callable[[str], str]:
        own = env.get_template(f"partials/languages/{language}.html").module
        english = env.get_template("partials/languages/en.html").module

        @cache
        def label(key: str) -> str:
            return own.t(key) or english.t(key) or key  # type: ignore[attr-defined]

        return label

    return labels
