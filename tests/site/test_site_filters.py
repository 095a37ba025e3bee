"""The site's pages: every filter their templates use is registered, under its function's
name (the site's filters on top of the documents', see ``tests/present/test_filters.py``)."""

from __future__ import annotations

import re

from markupsafe import Markup

from gendoc.collect import installed
from gendoc.present import render
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


def test_a_description_is_the_opening_paragraph_the_page_shows() -> None:
    """A page's description is the first paragraph of its text as the page shows it: on the
    Chinese site, translated wherever the page shows the text translated (MaxUnpool's said
    "not translated yet" when its first paragraph was cut from the source before cleaning),
    never the note that opens an untranslated run. Checked against the rendered text's own
    words for every operator of onnx in both languages; a text that opens with code (onnx's
    Normalizer) is described by it."""
    reference = installed.reference(with_details=True)
    for lang in ("en", "zh"):
        describe = environment(None, lang, reference.onnx_version).filters["description"]
        shown = render.display(render.RenderOptions(lang=lang), reference.onnx_version)
        note = shown.gettext("Not translated yet: the English original.")
        for domain in reference.domains:
            for op in reference.operators(domain):
                page = shown.schema_text(op.latest.doc)
                words = " ".join(Markup(page).striptags().split())
                described = describe(op.latest.doc)
                assert described, op.name
                assert note not in described, op.name
                if lang == "zh" and "gd-untranslated" not in page:
                    assert re.search(r"[\u4e00-\u9fff]", described), op.name
                if "gd-untranslated" not in page:  # the words the page opens with
                    assert words.startswith(described.removesuffix("…")), op.name
    normalizer = reference.operators("ai.onnx.ml")
    (found,) = [op for op in normalizer if op.name == "Normalizer"]
    english = environment(None, "en", reference.onnx_version).filters["description"]
    assert english(found.latest.doc).startswith("Normalize the input.")


def test_html_templates_write_markup_as_it_is_and_escape_everything_else() -> None:
    """The site's templates write a value that is markup already (a macro's output) without
    copying it, and everything else escaped as markupsafe escapes it: text, numbers, an
    object with ``__html__``, a Markup subclass, inside macros and imported ones too."""

    class Html:
        def __html__(self) -> str:
            return "<em>ok</em>"

    class Bold(Markup):
        pass

    env = environment(None, "en", "")
    source = (
        "{% macro wrap(x) %}<p>{{ x }}</p>{% endmacro %}"
        "{{ wrap(text) }}|{{ wrap(safe) }}|{{ n }}|{{ obj }}|{{ bold }}|{{ wrap(wrap(text)) }}"
    )
    template = env.from_string(source)
    values = {"text": "a<b & 'c'", "safe": Markup("<i>x</i>"), "n": 3, "obj": Html()}
    values["bold"] = Bold("<b>&</b>")
    expected = (
        "<p>a&lt;b &amp; &#39;c&#39;</p>|<p><i>x</i></p>|3|<em>ok</em>|<b>&</b>"
        "|<p><p>a&lt;b &amp; &#39;c&#39;</p></p>"
    )
    assert template.render(values) == expected
    # the name the compiled code looks ``escape`` up by gives a Markup value back as it is
    escape = template.root_render_func.__globals__["escape"]
    value = Markup("<i>x</i>")
    assert escape(value) is value
    assert escape("<") == "&lt;" and type(escape("<")) is Markup
    assert type(escape(values["bold"])) is Markup
