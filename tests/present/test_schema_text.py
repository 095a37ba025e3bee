"""Schema text in the default style is safe HTML with working links."""

from __future__ import annotations

from gendoc.present.display import docs_base
from gendoc.present.schema_render import render_text

BASE = docs_base("1.23.2")


def test_raw_html_is_escaped() -> None:
    html = render_text('<script>alert(1)</script> and <img src=x onerror="alert(2)">', BASE)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "&lt;img" in html


def test_javascript_links_are_not_links() -> None:
    html = render_text("[click](javascript:alert(1))", BASE)
    assert 'href="javascript' not in html


def test_relative_links_point_at_onnx_docs() -> None:
    html = render_text("See [b](Broadcasting.md) and [c](Changelog.md#Add-7) and [x](#here).", BASE)
    assert 'href="https://github.com/onnx/onnx/blob/v1.23.2/docs/Broadcasting.md"' in html
    assert 'href="https://github.com/onnx/onnx/blob/v1.23.2/docs/Changelog.md#Add-7"' in html
    assert 'href="#here"' in html


def test_markdown_renders_and_has_no_blank_lines() -> None:
    html = render_text("Uses `code`.\n\n    indented\n\n    block\n", BASE)
    assert "<code>code</code>" in html
    assert "\n\n" not in html


def test_docs_base_of_a_development_build_is_main() -> None:
    assert docs_base("1.24.0.dev20261101") == "https://github.com/onnx/onnx/blob/main/docs/"
