"""Collection maps onnx's values onto the model and survives values it does not know."""

from __future__ import annotations

import enum

import pytest

from gendoc.collect.schemas import UnknownValueWarning, differentiability_of, option_of
from gendoc.model.reference import Differentiability, Option, Reference


class FutureCategory(enum.Enum):
    Sometimes = 7


def test_unknown_differentiation_category_becomes_undefined_with_a_warning() -> None:
    with pytest.warns(UnknownValueWarning, match="Sometimes"):
        assert differentiability_of(FutureCategory.Sometimes, "X") is Differentiability.UNDEFINED


def test_unknown_option_becomes_single_with_a_warning() -> None:
    with pytest.warns(UnknownValueWarning, match="Sometimes"):
        assert option_of(FutureCategory.Sometimes, "X") is Option.SINGLE


def test_model_holds_every_domain_and_version(reference: Reference) -> None:
    from onnx import defs

    expected = {(s.domain, s.name, s.since_version) for s in defs.get_all_schemas_with_history()}
    found = {(s.domain, s.name, s.since_version) for s in reference.schemas}
    assert found == expected
    assert {"", "ai.onnx.ml", "ai.onnx.preview.training"} <= set(reference.domains)
    reshape = reference.operator("", "Reshape")
    assert reshape is not None
    assert [p.differentiability for p in reshape.latest.inputs] == [
        Differentiability.DIFFERENTIABLE,
        Differentiability.NON_DIFFERENTIABLE,
    ]


def test_model_holds_no_onnx_objects(reference: Reference) -> None:
    import dataclasses

    def walk(value: object) -> None:
        assert not type(value).__module__.startswith("onnx"), type(value)
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for schema in reference.schemas:
        walk(schema)


@pytest.mark.parametrize(
    ("file", "line", "expected"),
    [
        ("/project/onnx/defs/nn/defs.cc", 12, ("onnx/defs/nn/defs.cc", 12)),
        ("C:\\src\\onnx\\onnx\\defs\\math\\old.cc", 3, ("onnx/defs/math/old.cc", 3)),
        ("/home/me/onnx/defs/onnx/defs/x.cc", 5, ("onnx/defs/x.cc", 5)),
        ("unknown", 0, None),  # what onnx records for a schema registered from Python
        ("/src/onnxruntime/core/graph/contrib_ops/defs.cc", 40, None),
        ("/project/onnx/defs/nn/defs.cc", 0, None),
    ],
)
def test_source_is_relative_to_onnx_and_only_for_onnx_files(file, line, expected) -> None:
    from gendoc.collect.schemas import source_in_onnx

    assert source_in_onnx(file, line) == expected


def test_details_follow_onnx_for_every_version() -> None:
    """Inference, function bodies and source of every schema, checked against onnx itself."""
    import onnx
    from onnx import defs, printer

    from gendoc.collect.schemas import collect

    reference = collect(with_examples=False, with_details=True)
    for op in defs.get_all_schemas_with_history():
        details = reference.details[(op.domain, op.name, op.since_version)]
        assert details.has_inference is op.has_type_and_shape_inference_function
        assert details.context_dependent is op.has_context_dependent_function
        assert details.source is not None and op.file.endswith(details.source[0])
        assert details.source[1] == op.line
        shown = {v: b.text for b in details.function_bodies for v in b.opset_versions}
        assert sorted(shown) == sorted(op.function_opset_versions if op.has_function else [])
        for version, text in shown.items():
            proto = onnx.FunctionProto.FromString(op.get_function_with_opset_version(version))
            assert text == printer.to_text(proto)
        texts = [b.text for b in details.function_bodies]
        assert len(set(texts)) == len(texts), "versions with the same body are grouped"
    # HardSwish is a function (not built per node) in every onnx gendoc supports
    found = [s for s in defs.get_all_schemas_with_history() if s.name == "HardSwish"]
    assert found and found[-1].has_function, "onnx defines HardSwish as a function"
    bodies = reference.details[("", "HardSwish", found[-1].since_version)].function_bodies
    assert "HardSigmoid" in bodies[-1].text


def test_details_are_collected_only_when_asked(reference: Reference) -> None:
    assert reference.details == {}
