"""Every input and output in the default style carries the tag onnx.defs gives it.

The expected tags are read straight from ``onnx.defs`` here, not from the
model, so a mistake in collection or rendering shows up as a mismatch.
"""

from __future__ import annotations

import re

import pytest
from onnx import defs

from gendoc.catalogs.i18n import translations
from gendoc.model.reference import Reference
from gendoc.present.render import DOCUMENTS, RenderOptions, render_documents

LABELS = {
    "en": {
        "Differentiable": "differentiable",
        "NonDifferentiable": "non-differentiable",
        "Unknown": "undefined",
    },
    "zh": {"Differentiable": "可微", "NonDifferentiable": "不可微", "Unknown": "未定义"},
}
# The tags in parentheses and the separator before the type: ASCII in English, full-width in
# Chinese.
PARAM = re.compile(
    r"^<dt><code>([^<]+)</code>(?:(?: \(([^)]*)\))? : |(?:（([^）]*)）)?：)", re.MULTILINE
)
# Between tags: a comma in English, the enumeration comma in Chinese.
TAG_SEPARATOR = re.compile(", |、")
SECTION = re.compile(r"^#{3,4} <a name=\"([^\"]+)\"></a>", re.MULTILINE)


def _sections(text: str) -> dict[str, str]:
    """Text of each anchored operator section, by its first anchor."""
    marks = list(SECTION.finditer(text))
    return {
        m.group(1): text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        for i, m in enumerate(marks)
    }


def _shown_parameters(section: str, heading: str, next_heading: str) -> list[tuple[str, str]]:
    start = section.index(f"#### {heading}")
    end = section.find(f"#### {next_heading}", start)
    found = PARAM.findall(section[start : end if end >= 0 else None])
    return [(name, ascii or full_width) for name, ascii, full_width in found]


def _expected(schema: defs.OpSchema, lang: str) -> tuple[list[tuple], list[tuple]]:
    labels = LABELS[lang]
    return tuple(
        [(p.name, labels[p.differentiation_category.name]) for p in params]
        for params in (schema.inputs, schema.outputs)
    )


def _qualified(schema: defs.OpSchema, with_version: bool) -> str:
    name = f"{schema.domain}.{schema.name}" if schema.domain else schema.name
    return f"{name}-{schema.since_version}" if with_version else name


def _catalog(lang: str) -> dict[str, str]:
    """The labels these tests look for, as the shipped catalog of ``lang`` translates them."""
    gettext = translations(lang).gettext
    return {
        "inputs": gettext("Inputs"),
        "outputs": gettext("Outputs"),
        "type_constraints": gettext("Type Constraints"),
        "statement_body": gettext(
            "Every input and output is tagged *differentiable* (gradients flow through it), "
            "*non-differentiable* (no gradient is defined for it) or *undefined*. **Undefined** "
            "means that the schema makes no claim either way: the parameter may or may not be "
            "differentiable, and tools must not assume either."
        ),
        "statement_count": gettext(
            "In this document, %(undefined)s of %(total)s inputs and outputs (%(percent)s) "
            "are undefined."
        ),
    }


def _check_section(section: str, schema: defs.OpSchema, lang: str, catalog: dict) -> None:
    inputs, outputs = _expected(schema, lang)
    every_tag = set(LABELS[lang].values())
    for heading, following, expected in (
        (catalog["inputs"], catalog["outputs"], inputs),
        (catalog["outputs"], catalog["type_constraints"], outputs),
    ):
        shown = _shown_parameters(section, heading, following)
        assert [name for name, _ in shown] == [name for name, _ in expected]
        for (name, tags), (_, label) in zip(shown, expected, strict=True):
            found = [tag for tag in TAG_SEPARATOR.split(tags) if tag in every_tag]
            assert found == [label], f"{schema.name}-{schema.since_version} {name}: {tags!r}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_parameter_carries_its_tag(reference: Reference, lang: str) -> None:
    catalog = _catalog(lang)
    docs = render_documents(reference, RenderOptions(lang=lang))
    changelog = _sections(docs["Changelog.md"]) | _sections(docs["Changelog-ml.md"])
    operators = _sections(docs["Operators.md"]) | _sections(docs["Operators-ml.md"])
    latest: dict[tuple[str, str], defs.OpSchema] = {}
    schemas = defs.get_all_schemas_with_history()
    for schema in schemas:
        _check_section(changelog[_qualified(schema, True)], schema, lang, catalog)
        key = (schema.domain, schema.name)
        if key not in latest or latest[key].since_version < schema.since_version:
            latest[key] = schema
    for schema in latest.values():
        _check_section(operators[_qualified(schema, False)], schema, lang, catalog)
    assert len(schemas) > 500


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_statement_on_top_with_the_undefined_count(reference: Reference, lang: str) -> None:
    catalog = _catalog(lang)
    docs = render_documents(reference, RenderOptions(lang=lang))
    for doc in DOCUMENTS:
        text = docs[doc.filename]
        schemas = [
            s for s in defs.get_all_schemas_with_history() if (s.domain == "ai.onnx.ml") == doc.ml
        ]
        params = [p for s in schemas for p in (*s.inputs, *s.outputs)]
        undefined = sum(p.differentiation_category.name == "Unknown" for p in params)
        statement = catalog["statement_body"]
        assert text.count(statement) == 1
        assert text.index(statement) < text.index("\n## ")
        count_line = catalog["statement_count"].split("%(")[0]
        assert text.count(count_line) == 1
        assert f"{undefined}" in text[text.index(count_line) :].split("\n")[0]
        assert f"{len(params)}" in text[text.index(count_line) :].split("\n")[0]


def test_statement_mode_drops_only_the_undefined_tag(reference: Reference) -> None:
    tagged = render_documents(reference, RenderOptions())["Operators.md"]
    quiet = render_documents(reference, RenderOptions(undefined="statement"))["Operators.md"]
    assert "undefined)" in tagged
    assert ", undefined)" not in quiet and "(undefined)" not in quiet
    assert quiet.count("(differentiable)") == tagged.count("(differentiable)")
    assert quiet.count("Parameters with undefined differentiability carry no tag") == 1


def test_contents_column_summarises_the_newest_version(reference: Reference) -> None:
    text = render_documents(reference, RenderOptions())["Operators.md"]
    rows = {
        line.split("](#")[0].removeprefix("| ["): line
        for line in text.splitlines()
        if line.startswith("| [")
    }
    assert rows["Add"].endswith("| 2/2 inputs, 1/1 outputs differentiable |")
    assert rows["Reshape"].endswith("| 1/2 inputs, 1/1 outputs differentiable |")
    ml = render_documents(reference, RenderOptions())["Operators-ml.md"]
    row = "| [ai.onnx.ml.Scaler](#ai.onnx.ml.Scaler) | [1](Changelog-ml.md#ai.onnx.ml.Scaler-1) |"
    assert f"{row} undefined |" in ml
