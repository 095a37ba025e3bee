"""onnx's registry opened alone: the model importing onnx gives, defaults read as onnx does."""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import AttributeProto, defs, helper

from gendoc.collect.registry import attribute_default
from gendoc.collect.schemas import round_like_numpy

# Writes the snapshot of the collected model (its schemas: what the registry gives) in a
# fresh interpreter, optionally after importing onnx itself, and says which of onnx, numpy
# and protobuf the process ended up importing.
EXPORT = """
import sys
if sys.argv[1] == "import onnx first":
    import onnx
from gendoc.collect import installed
from gendoc.model.snapshot import dumps
snapshot = dumps(installed.reference(with_examples=False))
loaded = [m for m in ("onnx", "numpy", "google.protobuf") if m in sys.modules]
print(" ".join(loaded) or "none")
print(snapshot)
"""


def _export(how: str) -> tuple[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", EXPORT, how],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GENDOC_CACHE_DIR": ""},
    )
    loaded, snapshot = done.stdout.split("\n", 1)
    return loaded, json.loads(snapshot)


def test_the_registry_alone_gives_the_model_that_importing_onnx_gives() -> None:
    light_modules, light = _export("registry alone")
    full_modules, full = _export("import onnx first")
    assert light_modules == "none"
    assert full_modules == "onnx numpy google.protobuf"
    assert light["onnx_version"] == onnx.__version__
    assert len(light["schemas"]) == len(defs.get_all_schemas_with_history())
    assert light == full


def test_every_default_of_the_installed_schemas_reads_as_onnx_helper_reads_it() -> None:
    checked = 0
    for schema in defs.get_all_schemas_with_history():
        for attr in schema.attributes.values():
            proto = attr.default_value
            expected = (helper.get_attribute_value(proto), proto.doc_string) if proto.name else None
            assert attribute_default(attr) == expected, (schema.name, attr.name)
            checked += expected is not None
    assert checked > 400  # onnx 1.16 has 479 defaults, 1.23 more


@pytest.mark.parametrize(
    "value",
    [
        0,
        -1,
        -(2**63),
        2**63 - 1,
        0.0,
        -0.0,
        1e-7,
        "",
        "NOTSET",
        "\u4e2d\u6587",
        [],
        [1, -2, 3],
        [0.5, -1.25],
        ["a", "", "b"],
    ],
)
def test_a_default_of_each_simple_kind_is_decoded(value: object) -> None:
    kind = AttributeProto.INTS if value == [] else None  # an empty list says no kind
    proto = helper.make_attribute("x", value, doc_string=" (doc)", attr_type=kind)
    attr = defs.OpSchema.Attribute("x", proto, "description")
    expected = (helper.get_attribute_value(proto), " (doc)")
    assert attribute_default(attr) == expected
    no_default = defs.OpSchema.Attribute("x", defs.OpSchema.AttrType.INT, "", required=False)
    assert attribute_default(no_default) is None


def test_a_default_of_another_kind_is_left_to_onnx_helper() -> None:
    tensor = helper.make_tensor("t", onnx.TensorProto.FLOAT, [2], [1.0, 2.0])
    attr = defs.OpSchema.Attribute("x", helper.make_attribute("x", tensor), "")
    value, doc = attribute_default(attr)
    assert value == tensor and doc == ""


def test_floats_are_rounded_as_numpy_rounds_them() -> None:
    rng = random.Random(7)
    values = [0.0, -0.0, 5e-6, -5e-6, 1.5e-5, 2.5e-5, -4e-6, 1e16, -1e300, float("inf")]
    values += [struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0] for _ in range(5000)]
    values += [rng.uniform(-10, 10) for _ in range(5000)]
    for value in values:
        if value == value:  # NaN aside: it is never equal, and onnx has no NaN default
            assert repr(round_like_numpy(value, 5)) == str(np.round(value, 5)), value
