"""The "Runs on" tables, the matrix page and the opset pages' coverage, in both languages."""

from __future__ import annotations

import pytest

from gendoc.collect.installed import reference as installed_reference
from gendoc.model.reference import Reference
from gendoc.runtime.operator_support import opset_coverage
from gendoc.runtime.ort_kernels import load_record
from gendoc.site.pages import SiteContent


@pytest.fixture(scope="module")
def detailed() -> Reference:
    """The installed onnx's reference with function bodies, as the site reads it."""
    return installed_reference(with_details=True)


def test_pages_show_the_table_the_matrix_and_the_opset_coverage(detailed: Reference) -> None:
    site = SiteContent(detailed, [])
    english, chinese = (
        site.render("operators/ai.onnx/Relu.md", lang).text for lang in ["en", "zh"]
    )
    release = load_record()["onnxruntime"]
    assert "Runs on" in english and "运行于" in chinese
    row = f'>onnxruntime {release} CPU</a></td><td data-label="Kernel">registered</td>'
    assert row in english
    assert "已注册" in chinese and "Trains: gradient builder" in english
    matrix = site.render("opsets/ai.onnx/runtimes.md", "en").text
    assert ">Relu-14</a>" in matrix and "registered" in matrix
    newest = max(o.version for o in site.opsets(""))
    coverage = opset_coverage(detailed, site.opsets("")[-1].schemas)
    page = site.render(f"opsets/ai.onnx/{newest}.md", "en").text
    assert f"{coverage.registered} of these {coverage.total} operator versions" in page
    assert coverage.registered + coverage.function + coverage.refused + coverage.unknown == (
        coverage.total
    )
