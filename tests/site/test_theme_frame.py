"""Material's frame rendered cheaper (gendoc.site.theme_frame): the same words as Material's own.

The sidebar shared by the pages outside the navigation is checked on the built site
(tests/site/test_site_build.py); the theme's words here, against Material's own lookup.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

material = pytest.importorskip("material", reason="the site needs mkdocs-material")

from gendoc.site.theme_frame import theme_labels  # noqa: E402

MATERIAL = Path(material.__file__).parent / "templates"
OVERRIDES = Path(__file__).resolve().parents[2] / "templates" / "site" / "overrides"


def lookup(env: jinja2.Environment, language: str) -> object:
    """The ``t`` of ``partials/language.html`` as base.html imports it for a page."""
    config = SimpleNamespace(theme={"language": language})
    return env.get_template("partials/language.html").make_module({"config": config}).t


@pytest.mark.parametrize("language", ["en", "zh", "de"])
def test_the_theme_words_are_materials(language: str) -> None:
    """Every word Material's English table has, and a key no table has, read the same through
    gendoc's ``partials/language.html`` (each looked up once) as through Material's macro."""
    keys = re.findall(
        r'^\s*"([a-z][a-z.]*)":', (MATERIAL / "partials/languages/en.html").read_text(), re.M
    )
    assert len(keys) > 50
    materials = lookup(jinja2.Environment(loader=jinja2.FileSystemLoader(str(MATERIAL))), language)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(OVERRIDES), str(MATERIAL)]))
    env.globals["gendoc_theme_label"] = theme_labels(env)
    ours = lookup(env, language)
    assert not isinstance(ours, jinja2.runtime.Macro)  # the plugin's lookup, not the macro
    for key in [*keys, "no.such.word"]:
        assert ours(key) == materials(key), key
    assert ours("no.such.word") == "no.such.word"
