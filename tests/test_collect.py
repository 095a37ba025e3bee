"""Collection maps onnx's values onto the model and survives values it does not know."""

from __future__ import annotations

import enum

import pytest

from gendoc.collect import UnknownValueWarning, differentiability_of, option_of
from gendoc.model import Differentiability, Option, Reference


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
