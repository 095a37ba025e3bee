"""The site's pages: every filter their templates use is registered, under its function's
name (the site's filters on top of the documents', see ``tests/present/test_filters.py``)."""

from __future__ import annotations

from markupsafe import Markup

from gendoc.site.pages import environment
from tests.present.test_filters import registered_by_name, used_filters


def test_the_site_filters() -> None:
    env = environment(None, "en", "")
    registered_by_name(env)
    used = list(used_filters(env, "site"))
    assert {"tag_badge", "operator_diffs", "support_of", "md_name"} <= {f for _, f in used}
    assert [(t, f) for t, f in used if f not in env.filters] == []


def test_once_renders_a_macro_once_per_arguments_and_their_types() -> None:
    """``once`` gives what the macro renders, rendering it once per distinct arguments; a
    Markup argument is not taken for the text that equals it, which escapes otherwise."""
    env = environment(None, "en", "")
    template = env.from_string(
        '{% macro shout(x) %}<b>{{ x }}</b>{{ calls.append(x) or "" }}{% endmacro %}'
        "{{ once(shout, a) }}|{{ once(shout, a) }}|{{ once(shout, b) }}|{{ once(shout, c) }}"
    )
    calls: list[str] = []
    rendered = template.render(a="x<y", b="<i>", c=Markup("<i>"), calls=calls)
    assert rendered == "<b>x&lt;y</b>|<b>x&lt;y</b>|<b>&lt;i&gt;</b>|<b><i></b>"
    assert calls == ["x<y", "<i>", "<i>"]
    other = environment(None, "zh", "")  # each language's environment keeps its own
    assert other.globals["once"] is not env.globals["once"]
