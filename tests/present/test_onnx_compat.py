"""``--style onnx`` must write exactly what onnx's own gen_doc.py writes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from tests.helpers import run_gendoc

DOCUMENTS = ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md")


@pytest.fixture(scope="module")
def onnx_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run the installed onnx's gen_doc.py from a copy; it writes into <base>/docs."""
    base = tmp_path_factory.mktemp("onnx-gen-doc")
    script = base / "onnx" / "defs" / "gen_doc.py"
    script.parent.mkdir(parents=True)
    shutil.copy(Path(onnx.__file__).parent / "defs" / "gen_doc.py", script)
    (base / "docs").mkdir()
    subprocess.run(
        [sys.executable, str(script)], cwd=base, check=True, capture_output=True, timeout=600
    )
    return base / "docs"


@pytest.mark.slow
def test_onnx_style_is_byte_identical(onnx_docs: Path, tmp_path: Path) -> None:
    result = run_gendoc("build", "--style", "onnx", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    for name in DOCUMENTS:
        expected = (onnx_docs / name).read_bytes()
        actual = (tmp_path / name).read_bytes()
        assert len(expected) > 10_000
        assert actual == expected, f"{name} differs from onnx's gen_doc.py output"


@pytest.mark.slow
def test_examples_match_onnx_snippets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The source scan finds the same snippets that executing the test cases does."""
    monkeypatch.setenv("GENDOC_CACHE_DIR", "")
    code = (
        "import json, warnings; warnings.simplefilter('ignore');"
        "from onnx.backend.test.case import collect_snippets;"
        "print(json.dumps({k: sorted(v) for k, v in collect_snippets().items()}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=600
    ).stdout
    import json

    from gendoc.collect.examples import examples_of, onnx_folder, read_examples

    expected = json.loads(out)
    found = {
        name: [[e.summary, e.code] for e in examples]
        for name, examples in examples_of(read_examples(onnx_folder()), ml=True).items()
    }
    assert found == expected
