"""gendoc suggest on hand-written onnx-style sources: the patch applies, sets exactly the tags."""

from __future__ import annotations

import contextlib
import difflib
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from gendoc.cli import main
from gendoc.commands.suggest import check_checkout
from gendoc.errors import UsageError
from gendoc.evidence.interface import Verdict
from gendoc.evidence.verdict import Strength, Suggestion, Vote
from gendoc.model.reference import (
    Differentiability,
    Option,
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
)
from gendoc.present.render import RenderOptions, render_documents
from gendoc.suggest.checkout import SourceTree
from gendoc.suggest.decide import Location
from gendoc.suggest.describe import describe
from gendoc.suggest.docs import retag
from gendoc.suggest.provenance import Provenance
from gendoc.suggest.result import method1_scripts, suggest
from tests.helpers import lines_run

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "onnx_src"
D = Differentiability.DIFFERENTIABLE
N = Differentiability.NON_DIFFERENTIABLE
U = Differentiability.UNDEFINED
STRONG, WEAK, CONFLICT = Strength.STRONG, Strength.WEAK, Strength.CONFLICT
DISPUTED = Strength.DISPUTED
ref = ParameterRef.parse
"""A parameter as the tables below write it: ``ref("input X")``."""


def votes(*shown: str) -> tuple[Vote, ...]:
    """Votes written as a report shows them: ``source: verdict (detail)``."""
    found = []
    for text in shown:
        source, _, rest = text.partition(": ")
        verdict, _, detail = rest.partition(" (")
        found.append(Vote(source, Verdict(verdict), detail.removesuffix(")")))
    return tuple(found)


TWO_SOURCES = votes("a: gradient (x)", "b: gradient (y)")


# (op, version, parameter, current tag, suggested tag, strength), written from the fixture
VERDICTS = [
    ("Add", 14, ref("input A"), U, D, STRONG),
    ("Add", 14, ref("input B"), U, D, STRONG),
    ("Add", 14, ref("output C"), U, D, STRONG),
    ("Sub", 14, ref("input A"), U, D, STRONG),
    ("Sub", 14, ref("input B"), U, D, STRONG),
    ("Sub", 14, ref("output C"), U, D, STRONG),
    ("AveragePool", 22, ref("input X"), U, D, STRONG),
    ("AveragePool", 22, ref("output Y"), U, D, STRONG),
    ("LpPool", 22, ref("input X"), U, D, STRONG),
    ("LpPool", 22, ref("output Y"), U, D, WEAK),
    ("Clip", 13, ref("input input"), U, D, STRONG),
    ("Clip", 13, ref("input min"), U, D, STRONG),
    ("Clip", 13, ref("input max"), U, D, STRONG),
    ("Clip", 13, ref("output output"), U, D, STRONG),
    ("Floor", 13, ref("input X"), D, N, DISPUTED),
    ("Floor", 13, ref("output Y"), D, N, DISPUTED),
    ("Relu", 6, ref("input X"), U, D, STRONG),
    ("Relu", 6, ref("output Y"), U, D, WEAK),
    ("Reshape", 5, ref("input data"), U, D, STRONG),
    ("Reshape", 5, ref("input shape"), U, N, STRONG),
    ("Reshape", 5, ref("output reshaped"), U, None, CONFLICT),
]
CATEGORY = {D: "Differentiable", N: "NonDifferentiable", U: "Unknown"}


def _suggestions() -> list[Suggestion]:
    return [
        Suggestion(
            "", op, v, p, cur, new, s, votes("pytorch: gradient (x)", "onnxruntime: gradient (y)")
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


def _expected(min_evidence: Strength, shared_blocked: set[tuple[str, int, ParameterRef]]) -> dict:
    """Only undefined tags change: Floor's, which onnx sets, stays whatever the evidence says."""
    accepted = {STRONG} if min_evidence is STRONG else {STRONG, WEAK}
    tags = {}
    for op, v, p, cur, new, s in VERDICTS:
        change = cur is U and new is not None and s in accepted and (op, v, p) not in shared_blocked
        tags[(op, v, p)] = CATEGORY[new if change else cur]
    return tags


def _parsed_tags(root: Path) -> dict[tuple[str, int, ParameterRef], str]:
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
    blocked = {("AveragePool", 22, ref("output Y"))} if min_evidence is STRONG else set()
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
        ("AveragePool", ref("output Y"))
    ]
    assert "PoolOpSchemaGenerator (onnx/defs/math/defs.cc:33)" in shared[0].reason
    assert "LpPool-22 (differentiable (weak:" in shared[0].reason
    helper_change = [
        c for c in result.plan.changes if c.call.parameter == ref("input X") and c.helper
    ]
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
    extra = Suggestion("", "Gelu", 20, ref("input X"), U, D, STRONG, TWO_SOURCES)
    result = suggest(FIXTURE, [*_suggestions(), extra], _locations(FIXTURE), onnx_version="0.0.0")
    assert [
        (x.suggestion.op, x.reason) for x in result.plan.left_out if x.suggestion.op == "Gelu"
    ] == [("Gelu", "definition not found in the checkout")]


def test_a_tag_the_source_does_not_hold_is_not_changed():
    stale = Suggestion("", "Floor", 13, ref("input X"), U, N, STRONG, TWO_SOURCES)
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
    from gendoc.suggest import checkout, cpp

    def scan() -> None:
        with contextlib.suppress(UsageError):
            checkout._parse("x.cc", text)

    return lines_run({cpp.__file__, checkout.__file__}, scan)


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


# --- the patch onnx can merge: undefined only, whole versions, documents, description --------


def test_a_tag_onnx_set_is_disputed_never_changed():
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    floor = [d for d in result.plan.disputed if d.suggestion.op == "Floor"]
    assert [(d.suggestion.parameter, d.disagreeing) for d in floor] == [
        (ref("input X"), votes("pytorch: gradient (x)", "onnxruntime: gradient (y)")),
        (ref("output Y"), votes("pytorch: gradient (x)", "onnxruntime: gradient (y)")),
    ]
    assert not [c for c in result.plan.changes if c.call.category != "Unknown"]
    assert "## Disputed (2)" in result.description
    assert (
        "- Floor-13, input `X`: onnx says differentiable; against it: onnxruntime: gradient, "
        "pytorch: gradient; with it: no source\n"
    ) in result.description


def test_a_conflict_on_a_set_tag_is_disputed_with_both_sides():
    s = Suggestion("", "Floor", 13, ref("input X"), D, None, DISPUTED, votes("b: zero (x)"))
    s = replace(s, against=votes("a: gradient (y)"))
    (dispute,) = suggest(FIXTURE, [s], _locations(FIXTURE), onnx_version="0.0.0").plan.disputed
    assert (dispute.agreeing, dispute.disagreeing) == (
        votes("a: gradient (y)"),
        votes("b: zero (x)"),
    )


def test_a_touched_version_left_partly_tagged_says_why():
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    partial = {p.key[1:]: p.undefined for p in result.plan.partial}
    # Reshape-5's output has conflicting evidence; AveragePool's Y is a shared definition
    assert partial[("Reshape", 5)] == ((ref("output reshaped"), "conflicting evidence"),)
    assert partial[("AveragePool", 22)][0][0] == ref("output Y")
    assert partial[("AveragePool", 22)][0][1].startswith("shared definition, not changed")
    assert partial[("Relu", 6)][0][1].startswith("differentiable (weak:")
    assert set(partial) == {("Reshape", 5), ("AveragePool", 22), ("Relu", 6), ("LpPool", 22)}
    assert "- Reshape-5 keeps 1 undefined: output `reshaped`: conflicting evidence" in (
        result.description
    )


def test_whole_versions_touches_only_versions_it_completes(tmp_path):
    result = suggest(
        FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0", whole_versions=True
    )
    assert result.plan.partial == ()
    touched = {(s.op, s.version) for c in result.plan.changes for s in c.suggestions}
    # Pool's input X is shared by both pools, both incomplete: neither is touched
    assert touched == {("Add", 14), ("Sub", 14), ("Clip", 13)}
    left = {(x.suggestion.op, x.suggestion.parameter): x.reason for x in result.plan.left_out}
    assert left[("Reshape", ref("input data"))] == (
        "version not tagged completely (output reshaped: conflicting evidence)"
    )
    repo = _applied(tmp_path, result.patch)
    tags = _parsed_tags(repo)
    assert tags[("Reshape", 5, ref("input data"))] == "Unknown"
    assert tags[("Clip", 13, ref("input min"))] == "Differentiable"


def test_newest_only_leaves_older_versions_alone():
    newer = Suggestion("", "Relu", 14, ref("input X"), U, D, STRONG, TWO_SOURCES)
    result = suggest(
        FIXTURE,
        [*_suggestions(), newer],
        _locations(FIXTURE),
        onnx_version="0.0.0",
        newest_only=True,
    )
    assert not [s for c in result.plan.changes for s in c.suggestions if s.op == "Relu"]
    assert [s.version for s in result.plan.not_considered if s.op == "Relu"] == [6, 6]
    left = [(x.suggestion.op, x.suggestion.version, x.reason) for x in result.plan.left_out]
    assert ("Relu", 14, "definition not found in the checkout") in left
    assert not [x for x in left if x[0] == "Relu" and x[1] == 6]
    assert "Only the newest version of each operator is considered: 2 parameters" in (
        result.description
    )


def _param(name: str) -> Parameter:
    return Parameter(name, "T", f"The {name}.", Option.SINGLE, U)


def _fixture_model() -> Reference:
    """A model of the fixture's schemas, written by hand from the fixture."""
    shapes: dict[tuple[str, int], tuple[list[str], list[str]]] = {}
    for op, v, p, *_ in VERDICTS:
        shapes.setdefault((op, v), ([], []))[p.part is Part.OUTPUT].append(p.name)
    schemas = []
    for (op, v), (ins, outs) in sorted(shapes.items()):
        tag = D if op == "Floor" else U
        schemas.append(
            Schema(
                "",
                op,
                v,
                doc=f"{op} of the fixture.",
                inputs=tuple(replace(_param(n), differentiability=tag) for n in ins),
                outputs=tuple(replace(_param(n), differentiability=tag) for n in outs),
                min_inputs=len(ins),
                max_inputs=len(ins),
                min_outputs=len(outs),
                max_outputs=len(outs),
            )
        )
    return Reference("0.0.0", tuple(schemas))


def _checkout_with_documents(tmp_path: Path, model: Reference) -> Path:
    root = tmp_path / "onnx"
    shutil.copytree(FIXTURE, root)
    (root / "docs").mkdir()
    for name, text in render_documents(model, RenderOptions(style="onnx")).items():
        (root / "docs" / name).write_text(text, newline="")
    _git(root, "init", "-q")
    return root


def test_the_patch_carries_the_regenerated_documents(tmp_path):
    model = _fixture_model()
    root = _checkout_with_documents(tmp_path, model)
    result = suggest(root, _suggestions(), _locations(root), onnx_version="0.0.0", reference=model)
    assert sorted(p for p in re.findall(r"^\+\+\+ b/(\S+)", result.patch, re.M)) == [
        "docs/Changelog.md",
        "docs/Operators.md",
        "onnx/defs/math/defs.cc",
        "onnx/defs/math/old.cc",
    ]
    (tmp_path / "p").write_text(result.patch)
    assert _git(root, "apply", str(tmp_path / "p")).returncode == 0
    # the patched documents are the rendering of the model with the tags the sources now hold
    tags = _parsed_tags(root)
    now = {(("", op, v), p): TAG[tags[(op, v, p)]] for op, v, p, *_ in VERDICTS}
    expected = render_documents(retag(model, now), RenderOptions(style="onnx"))
    for name in ("Operators.md", "Changelog.md"):
        assert (root / "docs" / name).read_bytes().decode() == expected[name]
    # in the documents only the lines of undefined parameters change, to show their new tag
    docs = result.patch[: result.patch.index("--- a/onnx/")]
    removed = [line for line in docs.splitlines() if line.startswith("-<")]
    added = [line for line in docs.splitlines() if line.startswith("+<")]
    assert removed and all(re.fullmatch(r"-<dt><tt>\w+</tt> : T</dt>", x) for x in removed)
    assert all(
        re.fullmatch(r"\+<dt><tt>\w+</tt> \((non-)?differentiable\) : T</dt>", x) for x in added
    )
    assert len(added) == len(removed)


TAG = {
    "Differentiable": D,
    "NonDifferentiable": N,
    "Unknown": U,
}


def test_documents_that_differ_from_the_model_are_one_line(tmp_path):
    model = _fixture_model()
    root = _checkout_with_documents(tmp_path, model)
    path = root / "docs" / "Operators.md"
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = "edited by hand\n"
    path.write_text("".join(lines))
    with pytest.raises(UsageError) as raised:
        suggest(root, _suggestions(), _locations(root), onnx_version="0.0.0", reference=model)
    assert str(raised.value).startswith(
        f"docs/Operators.md of {root} differs from what gendoc renders for the installed "
        "onnx 0.0.0 (from line 6)"
    )


def test_the_description_stays_under_its_limit_and_names_the_full_table():
    many = [
        Suggestion("", f"Op{i}", 1, ref("input X"), U, D, STRONG, TWO_SOURCES) for i in range(300)
    ]
    result = suggest(FIXTURE, many, _locations(FIXTURE), onnx_version="0.0.0")
    full = describe(result.plan, STRONG, Provenance("0.0.0"))
    short = describe(result.plan, STRONG, Provenance("0.0.0"), limit=6000)
    assert len(full) > 6000 >= len(short)
    assert re.search(r"^- … and \d+ more: see `parameters.md`$", short, re.M)
    assert all(f"- Op{i}-1, input `X`: definition not found" in result.table for i in range(300))
    assert result.csv.count("\n") == 301
    assert result.csv.splitlines()[1] == (
        "ai.onnx,Op0,1,input X,undefined,differentiable,strong,left out,"
        "definition not found in the checkout,a: gradient (x); b: gradient (y),"
    )


def test_method1_scripts_for_the_changed_versions():
    result = suggest(FIXTURE, _suggestions(), _locations(FIXTURE), onnx_version="0.0.0")
    scripts = method1_scripts(_fixture_model(), result.plan)
    assert {"Add-14-A.py", "Add-14-B.py", "Sub-14-A.py", "Clip-13-input.py"} <= set(scripts)
    assert not [name for name in scripts if name.startswith("Floor")]  # not changed
    for name, text in scripts.items():
        compile(text, name, "exec")
        op_version, _, _ = name.rpartition("-")
        assert text.startswith(f"# ONNX {op_version}: is input ")


def _cli_checkout(tmp_path, monkeypatch, suggestions: list[Suggestion]) -> Path:
    """A checkout of the fixture with the installed onnx's version, and the evidence stubbed."""
    import onnx

    import gendoc.collect.installed
    import gendoc.suggest.installed_facts as evidence

    model = _fixture_model()
    root = _checkout_with_documents(tmp_path, model)
    (root / "VERSION_NUMBER").write_text(onnx.__version__ + "\n")
    monkeypatch.setattr(gendoc.collect.installed, "reference", lambda *a, **k: model)
    monkeypatch.setattr(evidence, "default_sources", lambda: [])
    monkeypatch.setattr(evidence, "source_lines", lambda sources: ["stub: answers by hand"])
    monkeypatch.setattr(evidence, "gather_suggestions", lambda sources: suggestions)
    monkeypatch.setattr(evidence, "installed_locations", lambda: _locations(root))
    return root


def test_cli_out_dir_writes_patch_description_table_and_scripts(tmp_path, monkeypatch, capsys):
    root = _cli_checkout(tmp_path, monkeypatch, _suggestions())
    out = tmp_path / "out"
    assert main(["suggest", "--onnx-src", str(root), "--out-dir", str(out), "--newest-only"]) == 0
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert [n for n in names if not n.startswith("scripts/")] == [
        "description.md",
        "parameters.csv",
        "parameters.md",
        "suggest.patch",
    ]
    assert "scripts/Add-14-A.py" in names
    description = (out / "description.md").read_text()
    assert "- stub: answers by hand" in description
    assert "gendoc suggest --onnx-src onnx --min-evidence strong --newest-only --out-dir" in (
        description
    )
    assert _git(root, "apply", "--check", str(out / "suggest.patch")).returncode == 0
    assert capsys.readouterr().out == ""  # the patch went to the folder, not to stdout


def test_cli_empty_patch_says_why_on_stderr(tmp_path, monkeypatch, capsys):
    root = _cli_checkout(tmp_path, monkeypatch, [])
    assert main(["suggest", "--onnx-src", str(root), "--out", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p").read_text() == ""
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("gendoc: nothing to change: 0 suggestions left out, 0 below")


def test_parameters_sort_as_the_table_writes_them():
    """The CSV table sorts its rows by parameter: inputs first, then by name, which is the
    order of their written text (``input Z`` before ``output A``, ``input a`` before
    ``input a b``)."""
    texts = ["output A", "input a b", "input Z", "input a", "output A_", "input _"]
    refs = [ref(t) for t in texts]
    assert [str(r) for r in sorted(refs)] == sorted(texts)
    assert [str(r) for r in refs] == texts


def test_cli_empty_patch_names_the_sources_that_could_not_run(tmp_path, monkeypatch, capsys):
    import gendoc.suggest.installed_facts as evidence
    from gendoc.evidence.sources import TORCH_MISSING, MissingSource

    root = _cli_checkout(tmp_path, monkeypatch, [])
    missing = MissingSource("pytorch", TORCH_MISSING)
    monkeypatch.setattr(evidence, "default_sources", lambda: [missing])
    assert main(["suggest", "--onnx-src", str(root), "--out", str(tmp_path / "p")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1].endswith(
        "0 disputed; pytorch unavailable: torch is not installed (see the description)"
    )


def test_without_torch_a_version_the_record_lacks_is_one_line(monkeypatch):
    import importlib.util

    import gendoc.collect.installed
    from gendoc.evidence.torch_record import RecordedTorchSource
    from gendoc.suggest.installed_facts import gather_suggestions

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    add = Schema("", "Add", 999, inputs=(_param("A"), _param("B")), outputs=(_param("C"),))
    monkeypatch.setattr(
        gendoc.collect.installed, "reference", lambda *a, **k: Reference("9", (add,))
    )
    with pytest.raises(
        UsageError,
        match=r"^torch is not installed, and the PyTorch record .* "
        r"lacks 1 operator versions of this onnx \(Add-999\): install torch",
    ):
        gather_suggestions([RecordedTorchSource()])


def test_a_version_file_that_is_not_utf8_is_one_line(tmp_path):
    root = _onnx_tree(tmp_path, "ok.cc", b"")
    (root / "VERSION_NUMBER").write_bytes(b"1.\xff\n")
    with pytest.raises(UsageError, match=r"^cannot read .*VERSION_NUMBER: 'utf-8' codec can't"):
        check_checkout(root, "1.0")


@pytest.mark.parametrize("whole_versions", [False, True])
def test_partly_tagged_versions_are_those_the_audit_reports(whole_versions):
    """The audit's own rule (GD004), run on the model with the patch's tags, finds exactly
    the versions the description lists as partly tagged (none with --whole-versions)."""
    from gendoc.audit.lints import check_partially_tagged
    from gendoc.model.reference import Operator

    result = suggest(
        FIXTURE,
        _suggestions(),
        _locations(FIXTURE),
        onnx_version="0.0.0",
        whole_versions=whole_versions,
    )
    patched = retag(_fixture_model(), result.plan.tagged)
    found = {
        (f.op, f.version)
        for s in patched.schemas
        for f in check_partially_tagged(Operator(s.domain, s.name, (s,)))
    }
    assert found == {key[1:] for key in (p.key for p in result.plan.partial)}
    assert bool(found) is not whole_versions


def test_a_tag_against_onnxs_tag_in_another_version_is_left_out_with_the_reason():
    """Clip-13's min: the evidence finds a gradient, but a newer Clip (here made up as
    Clip-99) is tagged non-differentiable by onnx: a reviewer's call, not a fill-in."""
    newer = Suggestion("", "Clip", 99, ref("input min"), N, D, DISPUTED, TWO_SOURCES)
    result = suggest(FIXTURE, [*_suggestions(), newer], _locations(FIXTURE), onnx_version="0.0.0")
    left = [
        (x.suggestion.version, x.reason) for x in result.plan.left_out if x.suggestion.op == "Clip"
    ]
    assert left == [(13, "onnx tags it non-differentiable in Clip-99 (disputed)")]
    assert ("Clip", 13, ref("input min")) not in {
        (s.op, s.version, s.parameter) for c in result.plan.changes for s in c.suggestions
    }


def test_the_description_shows_conventions_apart_from_tag_errors():
    from gendoc.evidence.verdict import DisputeKind

    math = Suggestion("", "Floor", 13, ref("input X"), D, N, DISPUTED, TWO_SOURCES)
    math = replace(math, kind=DisputeKind.MATH)
    convention = Suggestion("", "Clip", 13, ref("input min"), N, D, DISPUTED, TWO_SOURCES)
    convention = replace(convention, kind=DisputeKind.CONVENTION)
    result = suggest(FIXTURE, [math, convention], _locations(FIXTURE), onnx_version="0.0.0")
    text = result.description
    errors = text.index("### The mathematics contradicts the tag (1)")
    conventions = text.index("### Conventions (1)")
    assert errors < text.index("- Floor-13, input `X`") < conventions
    assert conventions < text.index("- Clip-13, input `min`")
