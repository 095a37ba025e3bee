"""``--style onnx`` writes schema text raw only when it is inert, and the check is an HTML5
parser's and a sanitizer's, not a list of known attacks: every vector a hand-made check let
through is written as text, and said, while onnx's own texts stay byte for byte."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gendoc.collect import installed
from gendoc.model.reference import schema_sort_key
from gendoc.present.live_markup import is_live, url_is_safe
from gendoc.present.onnx_format import own_texts
from tests.custom_schemas.live_markup_payloads import USE_OF_DEFINITION, VECTORS
from tests.helpers import run_gendoc
from tests.present.test_hostile_names import live_markup, operators_naming


def _as_onnx_writes(vector: str) -> str:
    """A vector where onnx's layout writes text: a doc paragraph, then a description."""
    return f"{USE_OF_DEFINITION}\n\n{vector}\n\n#### Inputs\n\n<dl>\n<dd>{vector}</dd>\n</dl>\n"


@pytest.mark.parametrize("name", VECTORS)
def test_each_vector_runs_when_written_raw(name: str) -> None:
    """The oracle can fail: written raw, each vector is live where mkdocs or GitHub renders it."""
    found = live_markup(_as_onnx_writes(VECTORS[name]))
    assert found, name


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str], str]:
    """The vectors' operators in both documents, what the oracle finds live there, stderr."""
    out = tmp_path_factory.mktemp("onnx-style")
    args = ("build", "--style", "onnx", "--schemas", "tests.custom_schemas.live_markup")
    result = run_gendoc(*args, "--out", str(out))
    assert result.returncode == 0, result.stderr
    documents = "\n".join(
        operators_naming((out / name).read_text("utf-8"), "vector")
        for name in ("Operators.md", "Changelog.md")
    )
    assert documents.count("vector:") == 2 * len(VECTORS)
    return documents, live_markup(documents), result.stderr


@pytest.mark.parametrize("name", VECTORS)
def test_each_vector_is_written_inert_and_said(
    built: tuple[str, list[str], str], name: str
) -> None:
    documents, live, stderr = built
    assert [found for found in live if name in found] == []
    assert f"&#39;{name}&#39;" in documents  # shown as text, not dropped
    assert "would be live markup in onnx's layout" in stderr
    assert name in stderr


def test_the_allow_list_keeps_what_prose_needs() -> None:
    """Formatting, a placeholder like onnx's ``Tensor<T>``, and links of allowed schemes stay."""
    for text in (
        "<b>bold</b>, <i>italic</i>, <sub>1</sub><br>",
        "Tensor<T> of <scalar tensor> and a < b",
        "[onnx](https://onnx.ai), [IR](IR.md), [mail](mailto:a@example.org), ![i](x.png)",
    ):
        assert not is_live(text), text
    assert not is_live("`<img src=x onerror=alert(1)>` in a doc's code span", markdown=True)
    assert is_live("`<img src=x onerror=alert(1)>` in a description", markdown=False)
    assert is_live("<i onmouseover='alert(1)'>x</i>")
    assert not is_live("an <i>unclosed element")  # the layout's text after it stays text
    assert is_live("<b>unclosed <textarea>")  # swallows what the layout writes after it
    assert is_live("<i>" * 20_000)  # nested past what is worth parsing: text, no traceback
    assert is_live("*x*{onclick=alert(1)}")  # Python-Markdown's attribute list


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://onnx.ai", True),
        ("IR.md#x", True),
        ("mailto:a@example.org", True),
        ("java&#9;script:alert(1)", False),
        ("jav%61script:alert(1)", False),
        ("&#x6A;avascript:alert(1)", False),
        ("\x01 javascript:alert(1)", False),
        ("java\nscript:alert(1)", False),
        ("data:text/html,x", False),
        ("vbscript:x", False),
    ],
)
def test_a_url_is_read_as_a_browser_reads_it(url: str, safe: bool) -> None:
    assert url_is_safe(url) is safe


def test_onnx_s_own_texts_pass_the_check_they_are_spared() -> None:
    """The layout writes onnx's own schemas as gen_doc.py does without asking; the allow-list
    would keep every text of them anyway (onnx 1.16.2 and onnx-weekly were checked alike)."""
    reference = installed.reference(with_examples=False)
    assert [schema_sort_key(s) for s in reference.schemas] == list(reference.onnx_own)
    for schema in reference.schemas:
        assert not is_live(schema.doc, markdown=True), schema.versioned_name
        for text in own_texts(replace(reference, schemas=(schema,))) - {schema.doc}:
            assert not is_live(text), (schema.versioned_name, text)


def test_a_modules_schemas_are_not_onnxs_own(tmp_path: Path) -> None:
    """A module's schema in onnx's own domain is checked like any other of its texts."""
    args = ("build", "--style", "onnx", "--schemas", "tests.custom_schemas.hostile_names")
    result = run_gendoc(*args, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "Operators.md").read_text("utf-8")
    assert "Lookalike" in text and "<script>alert('script')</script>" not in text
