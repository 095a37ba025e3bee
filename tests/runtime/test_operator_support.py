"""The site's "Runs on" data per operator version and ``gendoc export``'s ``runtime_support``:
the same answer as ``gendoc support`` for the same onnxruntime release (the pages that show
it: tests/site/test_site_runs_on.py)."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from gendoc.collect.installed import reference as installed_reference
from gendoc.collect.model_file import read_model
from gendoc.model.reference import Reference
from gendoc.runtime.answers import Status, check_node, check_on_provider
from gendoc.runtime.operator_support import provider_tables, runtime_support, support_of
from gendoc.runtime.ort_kernels import from_record, load_record

# Operators of one float input: a one-node model is enough to ask the command about each version
UNARY = ("Relu", "Abs", "HardSwish", "Mish", "GlobalLpPool", "Softsign")


@pytest.fixture(scope="module")
def detailed() -> Reference:
    """The installed onnx's reference with function bodies, as the site reads it."""
    return installed_reference(with_details=True)


def test_each_version_gets_the_commands_answer(tmp_path: Path, detailed: Reference) -> None:
    table = from_record(load_record())
    sources, exported = runtime_support(detailed)
    assert sources.onnxruntime == table.version and sources.onnxruntime_commit == table.commit
    seen = set()
    for name in UNARY:
        for schema in detailed.operator("", name).versions:
            if schema.since_version > table.opsets[""]:
                continue
            x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 4])
            node = helper.make_node(name, ["x"], ["y"])
            graph = helper.make_graph([node], "g", [x], [helper.make_empty_tensor_value_info("y")])
            opset = [helper.make_opsetid("", schema.since_version)]
            path = tmp_path / f"{name}-{schema.since_version}.onnx"
            onnx.save(helper.make_model(graph, opset_imports=opset), path)
            (used,) = read_model(path).nodes
            command = check_node(table, used).status
            site = support_of(detailed, schema, False).onnxruntime.status
            export = exported["", name, schema.since_version].onnxruntime.status
            assert export == site.value
            assert (command.runs, command is Status.FUNCTION) == (
                site.runs,
                site is Status.FUNCTION,
            ), (name, schema.since_version, command, site)
            seen.add(site)
            # each other provider: registered, through its function or on CPU, alike in the
            # command and the site
            rows = support_of(detailed, schema, False).providers
            for provider, row in zip(provider_tables(), rows, strict=True):
                asked = check_on_provider(provider, table, used).status
                where = (name, schema.since_version, provider.provider, asked, row.status)
                assert asked.runs == row.status.runs, where
                if asked.runs:
                    assert asked is row.status, where
                seen.add(row.status)
    # the versions checked cover a kernel, a function body, a refusal and a CPU fallback
    assert {Status.REGISTERED, Status.FUNCTION, Status.ON_CPU} <= seen
    assert any(s.runs is False for s in seen)
