"""The theme's navigation, rendered once for all the pages outside it.

Material writes the whole navigation into every page (``partials/nav.html``,
the sidebar: every section and page of mkdocs.yml's nav). The operator,
evidence, opset and runtime pages, nearly all of the site's, are not in the
navigation, so the sidebar marks none of them: for all those of one folder,
it is the same HTML, its links relative to that folder, with whichever
entries the gendoc plugin marks (an operator's domain index). Rendering it
for each was a twentieth of the theme's time per build.

:func:`share_nav` keeps the navigation Material's template renders for such a page,
by folder and marked entries, and gives it to the next page with the same. A page in
the navigation, or a ``partials/nav.html`` of a custom theme folder (which may show
anything of the page), is rendered every time, as before.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
from jinja2.runtime import Context

NAV = "partials/nav.html"


def _material() -> Path | None:
    """Material's folder of templates, where it is installed."""
    spec = importlib.util.find_spec("material")
    return Path(spec.origin).parent.resolve() / "templates" if spec and spec.origin else None


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
        key = _key(context)
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


def _key(context: Context) -> tuple[Any, ...] | None:
    """What the navigation of a page outside it depends on: the folder its links are
    relative to and the entries marked active; ``None`` for a page in the navigation."""
    page, nav = context.get("page"), context.get("nav")
    url = getattr(page, "url", None)
    if url is None or nav is None or page in nav.pages:
        return None
    active = tuple(n for n, item in enumerate(_walk(nav.items)) if item.active)
    return (url[: url.rfind("/") + 1], context.get("base_url"), active)
