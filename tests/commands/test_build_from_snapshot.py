"""``--from``: the documents rendered from an export are those of the onnx that made it.

An export holds the whole reference, so a reference for an onnx release can be built
and checked without installing that release. Each pair of style and language is built
twice, from the installed onnx and from the session's export of it, and the files
compared byte for byte; the export itself is validated with ``jsonschema`` against the
published schema.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from gendoc.api import build
from gendoc.catalogs.i18n import LANGUAGES
from gendoc.cli import main
from gendoc.model.snapshot import (
    SCHEMA_FILE,
    domain_part,
    encode,
)
from gendoc.model.snapshot_read import load_snapshot, snapshot_from_data
from gendoc.present.render import DOCUMENTS, RenderOptions
from gendoc.present.styles import STYLES

NAMES = sorted(doc.filename for doc in DOCUMENTS)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("style", sorted(STYLES))
def test_build_from_the_export_is_byte_identical(
    exported: Path, tmp_path: Path, style: str, lang: str
) -> None:
    options = RenderOptions(style=style, lang=lang)
    build(tmp_path / "installed", options)
    build(tmp_path / "snapshot", options, snapshot=exported)
    installed, from_snapshot = _files(tmp_path / "installed"), _files(tmp_path / "snapshot")
    assert sorted(installed) == NAMES
    assert from_snapshot == installed


def test_check_from_the_export_accepts_the_installed_documents(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "docs"
    assert main(["build", "--out", str(out)]) == 0
    assert main(["check", "--from", str(exported), "--out", str(out)]) == 0
    (out / "Operators.md").write_text("stale\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--from", str(exported), "--out", str(out)]) == 1
    fix = capsys.readouterr().out.splitlines()[-1]
    assert f"gendoc build --from {exported} --out {out} --style gendoc" in fix


def test_from_and_schemas_exclude_each_other(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "docs"
    assert main(["build", "--from", str(exported), "--schemas", "x", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        "gendoc: error: --schemas and --from exclude each other: the snapshot holds them\n"
    )
    assert not out.exists()


def test_an_old_export_is_one_line_naming_its_version(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(exported.read_text(encoding="utf-8"))
    data["format_version"] = 2
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    assert main(["build", "--from", str(old), "--out", str(tmp_path / "docs")]) == 2
    assert capsys.readouterr().err == (
        f"gendoc: error: {old}: snapshot format version 2 is not supported "
        "(this gendoc reads 3); export the snapshot again\n"
    )
    assert not (tmp_path / "docs").exists()


def test_the_export_and_each_domain_part_follow_the_published_schema(exported: Path) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text("utf-8")))
    data = json.loads(exported.read_text(encoding="utf-8"))
    validator.validate(data)
    snapshot = snapshot_from_data(data)
    domains = sorted({s.domain for s in snapshot.schemas})
    assert "" in domains
    parts = [json.loads(encode(domain_part(snapshot, d))) for d in domains]
    for part in parts:
        validator.validate(part)
    assert sum(len(p["schemas"]) for p in parts) == len(data["schemas"])


def test_the_export_holds_what_the_site_shows(exported: Path, reference) -> None:
    """Examples, details and the evidence verdicts, not only the interface."""
    restored = load_snapshot(exported)
    assert restored.schemas == reference.schemas
    assert restored.examples == reference.examples and restored.samples == reference.samples
    assert len(restored.details) == len(reference.schemas)
    data = json.loads(exported.read_text(encoding="utf-8"))
    judged = [s for s in data["schemas"] if s["evidence"]]
    assert judged and all(s["domain"] == "" for s in judged)
    strengths = {v["strength"] for s in judged for v in s["evidence"]}
    assert strengths <= {"strong", "weak", "conflict", "disputed"} and "strong" in strengths
