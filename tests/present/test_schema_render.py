"""Schema text rendering on onnx's own texts and on hostile ones.

Expected fragments were checked by reading onnx's texts (the Markdown as
written for onnx's docs folder) next to the HTML rendered here.
"""

from __future__ import annotations

import inspect
import re
from html.parser import HTMLParser

import onnx.defs
import pytest

from gendoc.catalogs.schema_text import schema_text
from gendoc.present import schema_render
from gendoc.present.schema_render import end_lists, markdown, may_link, render_math, render_text

BASE = "https://github.com/onnx/onnx/blob/v1.23.2/docs/"


def doc(name: str, domain: str = "") -> str:
    return onnx.defs.get_schema(name, domain=domain).doc


def description(name: str, attribute: str, domain: str = "") -> str:
    return onnx.defs.get_schema(name, domain=domain).attributes[attribute].description


class _Elements(HTMLParser):
    """Every element and attribute of an HTML fragment, as the browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(name, value or "") for name, value in attrs]


def elements(html: str) -> _Elements:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser


def test_dft_display_and_inline_math_become_mathml() -> None:
    html = render_text(doc("DFT"), BASE)
    assert "$" not in html
    assert html.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') == 2
    # where $j$ is the imaginary unit.
    assert 'display="inline"><mrow><mi>j</mi></mrow></math></span> is the imaginary' in html
    # \sum_{n=0}^{N-1} and \frac{k n}{N}
    assert "<munderover><mo>∑</mo>" in html
    assert "<mfrac><mrow><mi>k</mi><mi>n</mi></mrow><mrow><mi>N</mi></mrow></mfrac>" in html


def test_function_names_in_gelu_math_are_one_upright_identifier() -> None:
    """onnx writes ``erf(x/sqrt(2))`` and ``Tanh(...)`` as plain letters; each name is one
    ``<mi>`` (drawn upright), not a product of italic letters; DFT's ``kn`` stays a product."""
    html = render_text(doc("Gelu"), BASE)
    for name in ("erf", "sqrt", "Tanh"):
        assert f"<mi>{name}</mi>" in html, name
    assert "<mi>e</mi><mi>r</mi><mi>f</mi>" not in html
    assert "<mi>k</mi><mi>n</mi>" in render_text(doc("DFT"), BASE)


def test_dft_reference_url_is_a_link_without_the_full_stop() -> None:
    html = render_text(doc("DFT"), BASE)
    url = "https://docs.scipy.org/doc/scipy/tutorial/fft.html"
    assert f'Reference: <a href="{url}">{url}</a>' in html


# Texts of operators that onnx 1.16 does not have yet, as onnx 1.23.2 writes them.
ATTENTION_SCALE = (
    "Scaling factor applied to $Q*K^T$. Default value is `1/sqrt(head_size)`. To prevent "
    "[numerical overflow](https://tinyurl.com/sudb9s96), scale `Q`, `K` by `sqrt(scale)` "
    "before matmul."
)
STFT_CONSTRAINTS = (
    "Constraints on inputs:\n- `frame_step` must be a scalar.\n"
    "- `window` must be a 1-D tensor. When omitted, a rectangular (all-ones) window of length\n"
    "  `frame_length` is used. When both `window` and `frame_length` are provided, the length\n"
    "  of the `window` tensor must equal `frame_length`.\n"
)


def test_attention_math_keeps_its_star_inside_mathml() -> None:
    html = render_text(ATTENTION_SCALE, BASE)
    assert "<mi>Q</mi><mo>*</mo><msup><mi>K</mi><mi>T</mi></msup>" in html
    assert '<a href="https://tinyurl.com/sudb9s96">numerical overflow</a>' in html


def test_tree_ensemble_br_and_i_are_markup_not_text() -> None:
    html = render_text(doc("TreeEnsembleClassifier", "ai.onnx.ml"), BASE)
    assert "&lt;" not in html
    assert html.count("<br>") == 3
    assert "ending with <i>_as_tensor</i> can be used" in html


def test_self_closing_br_of_older_resize_versions_is_a_line_break() -> None:
    texts = [
        a.description
        for s in onnx.defs.get_all_schemas_with_history()
        if s.name == "Resize"
        for a in s.attributes.values()
        if "<br/>" in a.description
    ]
    assert len(texts) >= 2
    for text in texts:
        html = render_text(text, BASE)
        assert "&lt;br" not in html
        assert html.count("<br>") == text.count("<br/>") + text.count("<br>")


def test_type_parameters_in_angle_brackets_stay_text() -> None:
    html = render_text("Gelu takes one input data (Tensor<T>) and produces one output.", BASE)
    assert "(Tensor&lt;T&gt;)" in html


def test_lstm_formulas_keep_their_stars() -> None:
    html = render_text(doc("LSTM"), BASE)
    assert "<em>" not in html
    assert "<li>ScaledTanh(x)          - alpha*Tanh(beta*x)</li>" in html
    assert "<li>Elu(x)                 - x if x &gt;= 0 else alpha*(e^x - 1)</li>" in html


def test_attribute_name_wildcards_keep_their_stars() -> None:
    html = render_text(doc("LabelEncoder", "ai.onnx.ml"), BASE)
    assert "<em>" not in html
    assert "The i-th value in the specified 'keys_*' attribute" in html
    assert "the 'default_*' that matches the specified" in html
    # a real emphasis next to a name stays one
    assert render_text("the *new* keys_* names", BASE) == ("<p>the <em>new</em> keys_* names</p>")


@pytest.mark.parametrize("name", ["LSTM", "GRU", "RNN"])
def test_last_equation_bullet_does_not_swallow_the_next_paragraph(name: str) -> None:
    html = render_text(doc(name), BASE)
    assert "</li>\n</ul>\n<p>This operator has <strong>optional</strong> inputs/outputs." in html


def test_indented_continuation_of_a_bullet_stays_in_it() -> None:
    html = render_text(STFT_CONSTRAINTS, BASE)
    assert "<li><code>window</code> must be a 1-D tensor. When omitted, a rectangular" in html
    assert "of the <code>window</code> tensor must equal <code>frame_length</code>.</li>" in html


def test_resize_code_blocks_and_relative_links() -> None:
    html = render_text(description("Resize", "coordinate_transformation_mode"), BASE)
    assert "<pre><code>x_original = (x_resized + 0.5) / scale - 0.5\n</code></pre>" in html
    html = render_text(doc("LSTM"), BASE)
    assert f'<a href="{BASE}IR.md">the doc</a>' in html


URLS = [
    "See HTTPS://Example.com/a.",
    "at ftp://files.example.org",
    "cdn //cdn.example.com/x.js",
    "write to MAILTO:someone@example.com",
]


def test_texts_without_linkify_render_as_with_it() -> None:
    """The renderer skips linkify for a text where it cannot find a URL: the same HTML as
    rendering every text with it, for every text of the installed onnx and a few URLs."""
    texts = {*URLS, "plain text with a/b and a:b"}
    for schema in onnx.defs.get_all_schemas_with_history():
        texts.add(schema.doc or "")
        texts |= {a.description for a in schema.attributes.values()}
        texts |= {p.description for p in [*schema.inputs, *schema.outputs]}
    for text in sorted(texts):
        source = end_lists(inspect.cleandoc(text))
        assert markdown(BASE, may_link(source)).render(source) == markdown(BASE).render(source)
    assert all("<a href" in render_text(url, BASE) for url in URLS)


PLAIN_EDGES = [
    'Input "quoted" tensor',
    "Trailing space ",
    "Trailing ideographic space\u3000",
    "Two  spaces inside, it's fine: x = y + z % 2 {a} ^ @ # -- ...",
    "Résumé of the tensor",
    "张量的形状。",
    "See http://example.org",
    "1. not a letter first",
    "x\\",
    "a<b",
    "A & B",
    "Ends with a pipe |",
    "tab\there",
]


def test_plain_lines_render_as_markdown_it_renders_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text of one plain line is not parsed: the same HTML as markdown-it's, for every
    text of the installed onnx, every Chinese translation of the catalogs, and lines near
    the rule's edges; and a quarter of the texts at least are such lines."""
    texts = set(PLAIN_EDGES)
    for schema in onnx.defs.get_all_schemas_with_history():
        texts.add(schema.doc or "")
        texts |= {a.description for a in schema.attributes.values()}
        texts |= {p.description for p in [*schema.inputs, *schema.outputs]}
        texts |= {c.description for c in schema.type_constraints}
    chinese = schema_text("zh")
    texts |= {shown for text in list(texts) for shown, _ in chinese.paragraphs(text)}
    texts = sorted(texts)
    shortcut = [render_text(text, BASE) for text in texts]
    parsed: list[str] = []
    with monkeypatch.context() as patched:
        patched.setattr(schema_render, "markdown", counted(markdown, parsed))
        assert [render_text(text, BASE) for text in texts] == shortcut
    monkeypatch.setattr(schema_render, "_PLAIN_LINE", re.compile(r"(?!)"))
    assert [render_text(text, BASE) for text in texts] == shortcut
    assert len(parsed) < len(texts) * 3 // 4


def counted(function, calls: list):
    """``function``, each call noted in ``calls``."""

    def call(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)

    return call


def test_file_names_are_not_taken_for_domains() -> None:
    html = render_text("See Operators.md or www.example.org for details.", BASE)
    assert "<a" not in html


@pytest.mark.parametrize(
    "text",
    [
        "<img src=x onerror=alert(1)>",
        '<a href="javascript:alert(1)">x</a>',
        "<b onclick=alert(1)>bold</b>",
        '<i style="x">i</i>',
        "<script>alert(1)</script>",
        "<svg><script>alert(1)</script></svg>",
        "<p>\n\n<iframe src=x></iframe>",
        "<!-- gendoc:slot 0 -->",
        "[click](javascript:alert(1))",
        "<javascript:alert(1)>",
        r"$\href{javascript:alert(1)}{x}$",
        r"$\text{<img src=x onerror=alert(1)>}$",
        r"$$\style{background:url(x)}{x}$$",
        r"$x$ and $\unknownmacro{<b>}$",
    ],
)
def test_hostile_input_yields_no_live_markup(text: str) -> None:
    html = render_text(text, BASE)
    found = elements(html)
    assert not {"script", "img", "iframe", "svg", "a"} & set(found.tags), html
    names = {name for name, _ in found.attrs}
    assert names <= {"xmlns", "display", "class", "stretchy", "mathvariant"}, html
    assert not any("javascript" in value.lower() for _, value in found.attrs), html
    assert "<!-- gendoc" not in html


def test_allowed_tags_lose_nothing_but_stay_balanced() -> None:
    html = render_text("a <b>bold <sup>2</sup> and <em>open\n\nnext</b> x</p>", BASE)
    assert html == (
        "<p>a <b>bold <sup>2</sup> and <em>open</em></b></p>\n<p>next&lt;/b&gt; x&lt;/p&gt;</p>"
    )


def test_math_the_converter_cannot_read_is_shown_as_source() -> None:
    assert render_math(r"\frac{1}{", display=False) == r"<code>\frac{1}{</code>"


def test_money_is_not_math() -> None:
    assert render_text("It costs $5 or $6.", BASE) == "<p>It costs $5 or $6.</p>"


def test_no_blank_line_in_any_onnx_text() -> None:
    seen = set()
    for schema in onnx.defs.get_all_schemas_with_history():
        texts = [schema.doc or ""]
        texts += [a.description for a in schema.attributes.values()]
        for text in texts:
            if text in seen:
                continue
            seen.add(text)
            html = render_text(text, BASE)
            assert not re.search(r"\n\s*\n", html), (schema.name, html)
