"""gendoc suggest on hand-written onnx-style sources: the patch applies, sets exactly the tags."""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gendoc.cli import main
from gendoc.errors import UsageError
from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model import Differentiability
from gendoc.suggest.command import check_checkout, suggest
from gendoc.suggest.plan import Location
from gendoc.suggest.source import SourceTree

FIXTURE = Path(__file__).parent / "fixtures" / "onnx_src"
D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
U = Differentiability.UNDEFINED
STRONG, WEAK, CONFLICT = Strength.STRONG, Strength.WEAK, Strength.CONFLICT

# (op, version, parameter, current tag, suggested tag, strength), written from the fixture
VERDICTS = [
    ("Add", 14, "input A", U, D, STRONG),
    ("Add", 14, "input B", U, D, STRONG),
    ("Add", 14, "output C", U, D, STRONG),
    ("Sub", 14, "input A", U, D, STRONG),
    ("Sub", 14, "input B", U, D, STRONG),
    ("Sub", 14, "output C", U, D, STRONG),
    ("AveragePool", 22, "input X", U, D, STRONG),
    ("AveragePool", 22, "output Y", U, D, STRONG),
    ("LpPool", 22, "input X", U, D, STRONG),
    ("LpPool", 22, "output Y", U, D, WEAK),
    ("Clip", 13, "input input", U, D, STRONG),
    ("Clip", 13, "input min", U, D, STRONG),
    ("Clip", 13, "input max", U, D, STRONG),
    ("Clip", 13, "output output", U, D, STRONG),
    ("Floor", 13, "input X", D, N, STRONG),
    ("Floor", 13, "output Y", D, N, STRONG),
    ("Relu", 6, "input X", U, D, STRONG),
    ("Relu", 6, "output Y", U, D, WEAK),
    ("Reshape", 5, "input data", U, D, STRONG),
    ("Reshape", 5, "input shape", U, N, STRONG),
    ("Reshape", 5, "output reshaped", U, None, CONFLICT),
]
CATEGORY = {D: "Differentiable", N: "NonDifferentiable", U: "Unknown"}


def _suggestions() -> list[Suggestion]:
    return [
        Suggestion(
            "", op, v, p, cur, new, s, ("pytorch: gradient (x)", "onnxruntime: gradient (y)")
        )
        for op, v, p, cur, new, s in VERDICTS
    ]


def _locations(root: Path) -> dict[tuple[str, str, int], Location]:
    """Where each fixture schema starts, found by a plain search (not by the parser)."""
    found = {}
    for file in sorted((root / "onnx" / "defs").rglob("*.cc")):
        text = file.read_text()
        for m in re.finditer(r"^ONNX_OPERATOR_SET_SCHEMA\(\s*(\w+),\s*(\d+)", text, re.M):
            line = text.count("\n", 0, m.start()) + 1
            found[("", m[1], int(m[2]))] = Location(file.relative_to(root).as_posix(), line)
    return found


def _expected(min_evidence: Strength, shared_blocked: set[tuple[str, int, str]]) -> dict:
    """Only undefined tags change: Floor's, which onnx sets, stays whatever the evidence says."""
    accepted = {STRONG} if min_evidence is STRONG else {STRONG, WEAK}
    tags = {}
    for op, v, p, cur, new, s in VERDICTS:
        change = cur is U and new is not None and s in accepted and (op, v, p) not in shared_blocked
        tags[(op, v, p)] = CATEGORY[new if change else cur]
    return tags


def _parsed_tags(root: Path) -> dict[tuple[str, int, str], str]:
    tree = SourceTree.read(root)
    tags = {}
    for op, v, p, *_ in VERDICTS:
        (block,) = [d for d in tree.definitions if (d.name, d.version) == (op, v)]
        categories = {c.category for c in tree.sites(block, p)}
        assert len(categories) == 1, (op, v, p, categories)
        tags[(op, v, p)] = categories.pop()
    return tags


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\w+(?:::\w+)*|\S')
_ADDED = {",", "OpSchema::Single", "true", "1"} | {f"OpSchema::{c}" for c in CATEGORY.values()}


def _only_category_tokens_changed(old: str, new: str) -> None:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            assert set(a[i1:i2]) | set(b[j1:j2]) <= _ADDED, (a[i1:i2], b[j1:j2])


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _applied(tmp_path: Path, patch: str) -> Path:
    """A git repository of the fixture with ``patch`` checked and applied."""
    repo = tmp_path / "onnx"
    shutil.copytree(FIXTURE, repo)
    _git(repo, "init", "-q")
    (tmp_path / "tags.patch").write_text(patch)
    check = _git(repo, "apply", "--check", str(tmp_path / "tags.patch"))
    assert check.returncode == 0, check.stderr
    assert _git(repo, "apply", str(tmp_path / "tags.patch")).returncode == 0
    return repo


@pytest.mark.parametrize("min_evidence", [STRONG, WEAK])
def test_patch_applies_and_sets_exactly_the_suggested_tags(tmp_path, min_evidence):
    result = suggest(
        FIXTURE, _suggestions(), _locations(FIXTURE), min_evidence, onnx_version="0.0.0"
    )
    repo = _applied(tmp_path, result.patch)
    # LpPool's output Y has weak evidence only: at 'strong' the shared Y stays for both pools
    blocked = {("AveragePool", 22, "output Y")} if min_evidence is STRONG else set()
    assert _parsed_tags(repo) == _expected(min_evidence, blocked)
    for file in FIXTURE.rglob("*.cc"):
        rel = file.relative_to(FIXTURE)
        _only_category_tokens_changed(file.read_text(), (repo / rel).read_text())


def test_the_sources_before_the_patch_give_the_current_tags():
    assert _parsed_tags(FIXTURE) == {(op, v, p): CATEGORY[cur] for op, v, p, cur, *_ in VERDICTS}


def _patched(tmp_path: Path, path: str) -> str:
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    return (_applied(tmp_path, result.patch) / path).read_text()


def test_layout_follows_onnx_clang_format(tmp_path):
    old = _patched(tmp_path, "onnx/defs/math/old.cc")
    # fits on its line: the missing arguments are appended in place
    assert (
        '        .Input(0, "X", "Input tensor", "T", '
        "OpSchema::Single, true, 1, OpSchema::Differentiable)\n" in old
    )
    # does not fit even on a continuation line: one argument a line, four more spaces
    assert (
        "        .Input(\n"
        "            1,\n"
        '            "shape",\n'
        '            "Specified shape for output, computed elsewhere and given as a '
        'one-dimensional tensor.",\n'
        '            "tensor(int64)",\n'
        "            OpSchema::Single,\n"
        "            true,\n"
        "            1,\n"
        "            OpSchema::NonDifferentiable)\n"
    ) in old
    new = _patched(tmp_path / "again", "onnx/defs/math/defs.cc")
    # already one argument a line: the added ones follow at the same indent
    assert (
        '        "T",\n        OpSchema::Single,\n        true,\n'
        "        1,\n        OpSchema::Differentiable);\n" in new
    )
    # a present Unknown is replaced and nothing else on the line moves
    assert (
        '    schema.Input(1, "B", "Second operand.", "T", OpSchema::Single, true, 1, '
        "OpSchema::Differentiable);\n"
    ) in new
    # a category onnx set stays, whatever the evidence says (Floor's)
    assert '"Input tensor", "T", OpSchema::Single, true, 1, OpSchema::Differentiable)\n' in new
    # a longer category would overflow its line: the arguments move to the next line (120 wide)
    assert (
        "        .Input(\n"
        '            0, "input", "Input tensor whose elements to clip", "T", '
        "OpSchema::Single, true, 1, OpSchema::Differentiable)\n"
    ) in new
    # an argument spread over lines keeps its lines; the Optional option stays
    assert (
        '            "It must be a scalar(tensor of empty shape) or \\"-inf\\".",\n'
        '            "T",\n'
        "            OpSchema::Optional,\n"
        "            true,\n"
        "            1,\n"
        "            OpSchema::Differentiable)\n"
    ) in new


def test_shared_helper_with_disagreeing_schemas_is_reported_not_changed():
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    shared = [x for x in result.plan.left_out if x.reason.startswith("shared definition")]
    assert [(x.suggestion.op, x.suggestion.parameter) for x in shared] == [
        ("AveragePool", "output Y")
    ]
    assert "PoolOpSchemaGenerator (onnx/defs/math/defs.cc:33)" in shared[0].reason
    assert "LpPool-22 (differentiable (weak:" in shared[0].reason
    helper_change = [c for c in result.plan.changes if c.call.label == "input X" and c.helper]
    assert [sorted(s.op for s in c.suggestions) for c in helper_change] == [
        ["AveragePool", "LpPool"]
    ]


def test_description_lists_changes_sources_and_what_was_left_out():
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    text = result.description
    # Floor's two tags are onnx's: 15 undefined parameters in 7 versions change
    assert "15 inputs and outputs in 7 operator versions (11 `Input`/`Output` calls)" in text
    assert (
        "| input `A` | undefined | differentiable | strong "
        "| pytorch: gradient (x); onnxruntime: gradient (y) | `onnx/defs/math/defs.cc:16` "
        "in `MathDocGenerator` |"
    ) in result.table
    assert "| differentiable: onnxruntime: gradient, pytorch: gradient | 14 |" in text
    assert "- Add-14: input `A` differentiable, input `B` differentiable, output `C` " in text
    assert "- AveragePool-22, output `Y`: shared definition, not changed" in text
    assert "- Relu-6, output `Y`: differentiable (weak:" in text
    assert "- Reshape-5, output `reshaped`: conflicting evidence" in text


def test_schemas_not_in_the_checkout_are_left_out_with_the_reason():
    extra = Suggestion("", "Gelu", 20, "input X", U, D, STRONG, ("a", "b"))
    result = suggest(FIXTURE, [*_suggestions(), extra], _locations(FIXTURE), onnx_version="0.0.0")
    assert [
        (x.suggestion.op, x.reason) for x in result.plan.left_out if x.suggestion.op == "Gelu"
    ] == [("Gelu", "definition not found in the checkout")]


def test_a_tag_the_source_does_not_hold_is_not_changed():
    stale = Suggestion("", "Floor", 13, "input X", U, N, STRONG, ("a", "b"))
    result = suggest(FIXTURE, [stale], _locations(FIXTURE), onnx_version="0.0.0")
    assert result.patch == ""
    assert result.plan.left_out[0].reason == (
        "the source says Differentiable (onnx/defs/math/defs.cc:73), onnx says undefined"
    )


def test_not_an_onnx_checkout_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match=r"^not an onnx checkout: .* has no onnx/defs/schema.h$"):
        check_checkout(tmp_path, "0.0.0")


def test_another_onnx_version_is_a_usage_error():
    check_checkout(FIXTURE, "0.0.0")
    with pytest.raises(UsageError, match=r"holds onnx 0\.0\.0, but onnx 1\.23\.2 is installed"):
        check_checkout(FIXTURE, "1.23.2")


def test_cli_reports_a_mismatched_checkout_on_one_line(capsys):
    assert main(["suggest", "--onnx-src", str(FIXTURE)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gendoc: error: ") and "holds onnx 0.0.0, but onnx" in err
    assert err.count("\n") == 1


# --- unreadable sources and the scanner's cost ------------------------------------------------


def _onnx_tree(tmp_path: Path, name: str, content: bytes) -> Path:
    root = tmp_path / "src"
    shutil.copytree(FIXTURE, root)
    (root / "onnx" / "defs" / "math" / name).write_bytes(content)
    return root


def test_a_source_file_that_is_not_utf8_is_one_line(tmp_path):
    root = _onnx_tree(tmp_path, "bad.cc", b"// ok\n// caf\xe9\n")
    with pytest.raises(UsageError) as raised:
        SourceTree.read(root)
    assert str(raised.value) == "cannot read onnx/defs/math/bad.cc:2: not UTF-8 (byte 0xe9)"


def test_a_bracket_never_closed_is_one_line_naming_file_and_line(tmp_path):
    root = _onnx_tree(tmp_path, "open.cc", b"// f\nvoid f() {\n  g((1);\n}\n")
    with pytest.raises(UsageError) as raised:
        SourceTree.read(root)
    # brackets pair by depth: the extra ( takes the }, and the body's { stays open
    assert str(raised.value) == "cannot parse onnx/defs/math/open.cc:2: '{' is never closed"


def test_cli_unreadable_source_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    import onnx

    root = _onnx_tree(tmp_path, "bad.h", b"\xff\xfe")
    (root / "VERSION_NUMBER").write_text(onnx.__version__ + "\n")
    assert main(["suggest", "--onnx-src", str(root), "--out", str(tmp_path / "p")]) == 2
    err = capsys.readouterr().err
    assert err == "gendoc: error: cannot read onnx/defs/math/bad.h:1: not UTF-8 (byte 0xff)\n"
    assert not (tmp_path / "p").exists()


def _scanner_steps(text: str) -> int:
    """The Python lines the scanner runs on ``text``: its work, independent of the clock."""
    import sys

    from gendoc.suggest import cpp, source

    files = {cpp.__file__, source.__file__}
    steps = 0

    def local(frame, event, arg):
        nonlocal steps
        steps += event == "line"
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename in files else None

    sys.settrace(calls)
    try:
        source._parse("x.cc", text)
    except UsageError:
        pass
    finally:
        sys.settrace(None)
    return steps


HOSTILE = {
    "unmatched (": "(",
    "unmatched )": ")",
    "closers then a brace": ")){",
    "nested calls": '.Input(0, "x", ',
    "functions": "void f(int a) const {}\n",
    "schemas": 'ONNX_OPERATOR_SET_SCHEMA(A, 1, OpSchema().Input(0, "X", "d", "T"));\n',
    "strings": '"a\\"(" R"D((()D" // ((\n',
    "the fixture": (FIXTURE / "onnx" / "defs" / "math" / "defs.cc").read_text(),
}


@pytest.mark.parametrize("unit", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_scanner_does_linear_work(unit):
    size = 3_000
    small = unit * max(1, size // len(unit))
    steps = [_scanner_steps(small), _scanner_steps(small * 2)]
    assert steps[0] > 0
    # twice the text, at most twice the work (and a little for the constant part)
    assert steps[1] <= 2 * steps[0] + 50, steps
