"""PyTorch's recorded verdicts: equal to what the installed torch says, and used only where
the record was made from the same operator version."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from gendoc.catalogs.i18n import N_, Quoted, quoted, say
from gendoc.evidence.interface import Basis, ParameterEvidence, SourceEvidence, Verdict
from gendoc.evidence.record import from_record, interface_key, to_record
from gendoc.evidence.torch_ops import TORCH_OPS
from gendoc.evidence.torch_record import RecordedTorchSource, load_record
from gendoc.model.reference import (
    Differentiability,
    Option,
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
)


def test_the_record_is_what_the_installed_torch_says(reference: Reference) -> None:
    """Every recorded version of the installed onnx, asked again; for the onnx the record was
    made with, every mapped version is in it. A failure here means: record again with
    ``python -m gendoc.evidence.torch_record``."""
    pytest.importorskip("torch")
    from gendoc.evidence.torch_source import TorchSource

    record = load_record()
    recorded = RecordedTorchSource()
    live = TorchSource()
    mapped = [s for s in reference.schemas if not s.domain and s.name in TORCH_OPS]
    kept = [s for s in mapped if interface_key(s) in record["verdicts"]]
    if reference.onnx_version == record["onnx"]:
        assert len(kept) == len(mapped)
    assert kept, "the record holds versions of the installed onnx"
    for schema in kept:
        assert recorded.evaluate(schema) == live.evaluate(schema), schema.versioned_name


def test_a_changed_interface_is_asked_live(reference: Reference) -> None:
    pytest.importorskip("torch")
    from gendoc.evidence.torch_source import TorchSource

    clip = reference.operator("", "Clip").latest
    first = clip.inputs[0]
    changed = dataclasses.replace(
        clip, inputs=(dataclasses.replace(first, type_str="T2"), *clip.inputs[1:])
    )
    assert interface_key(changed) != interface_key(clip)
    forged = {interface_key(changed): {"detail": {"id": "forged", "args": {}}, "parameters": []}}
    assert RecordedTorchSource(forged).evaluate(changed).detail.text == "forged"
    assert RecordedTorchSource(forged).evaluate(clip) == TorchSource().evaluate(clip)


def test_the_record_does_not_read_the_tags(reference: Reference) -> None:
    """Tags removed or flipped, the key and the recorded answer stay the same."""
    swap = {
        Differentiability.DIFFERENTIABLE: Differentiability.NON_DIFFERENTIABLE,
        Differentiability.NON_DIFFERENTIABLE: Differentiability.UNDEFINED,
        Differentiability.UNDEFINED: Differentiability.DIFFERENTIABLE,
    }
    schema = reference.operator("", "BatchNormalization").latest
    flipped = dataclasses.replace(
        schema,
        inputs=tuple(
            dataclasses.replace(p, differentiability=swap[p.differentiability])
            for p in schema.inputs
        ),
    )
    assert interface_key(flipped) == interface_key(schema)
    assert RecordedTorchSource().evaluate(flipped) == RecordedTorchSource().evaluate(schema)


def test_an_unmapped_operator_needs_no_torch(reference: Reference) -> None:
    loop = reference.operator("", "Loop").latest
    evidence = RecordedTorchSource({}).evaluate(loop)
    assert {p.detail.text for p in evidence.parameters} == {"no torch mapping"}


def test_the_site_weighs_evidence_without_importing_torch(tmp_path) -> None:
    """The Clip page's verdicts come from the record, and torch is never imported."""
    pytest.importorskip("mkdocs")
    code = """
import json, sys
from gendoc.collect import installed
from gendoc.site.pages import SiteContent
site = SiteContent(installed.reference((), with_details=True), [])
page = site.render("evidence/ai.onnx/Clip.md", "en")
text = page.text
print(json.dumps(["torch" in sys.modules, "torch 2" in text, "nonzero gradient" in text]))
"""
    env = {"GENDOC_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, True, True]


def test_a_record_row_reads_back_as_the_same_parameter() -> None:
    """An input and an output of the same name stay two parameters through the record's
    JSON form: each row is read back into its part and name, never into one text."""
    x = Parameter("X", "T", "", Option.SINGLE, Differentiability.UNDEFINED)
    schema = Schema("", "Op", 1, inputs=(x,), outputs=(x,))
    given = SourceEvidence(
        "pytorch",
        "",
        "Op",
        1,
        (
            ParameterEvidence(
                ParameterRef(Part.INPUT, "X"), Verdict.GRADIENT, quoted("a"), Basis.POLICY
            ),
            ParameterEvidence(
                ParameterRef(Part.OUTPUT, "X"),
                Verdict.REFUSED,
                say(N_("{case}: {error}"), case=quoted("t"), error=Quoted("b")),
            ),
        ),
        say(N_("{call} (torch {version})"), call=Quoted("f(X)"), version="1"),
    )
    kept = json.loads(json.dumps(to_record(given)))
    assert [row[:2] for row in kept["parameters"]] == [["input", "X"], ["output", "X"]]
    read = from_record("pytorch", schema, kept)
    assert read == given
    assert read.verdict_of(ParameterRef(Part.OUTPUT, "X")).verdict is Verdict.REFUSED
