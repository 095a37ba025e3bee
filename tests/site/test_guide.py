"""Run the code of the guide pages and keep the two languages in step.

The Markdown pages under ``site/`` are the single source: every fenced
``python`` block is executed in a fresh namespace, inside an empty temporary
working directory, and what it prints must equal the fenced ``text`` block that
follows it. Blocks that import torch are skipped when torch is not installed.
A second group of tests checks that the English and Chinese pages have the same
headings (levels and anchors) and byte-identical code blocks, in the same order.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

SITE = Path(__file__).resolve().parents[2] / "site"
LANGUAGES = ("en", "zh")
PAGES = ("guide.md", "gradients.md")
GUIDE = "guide.md"

TORCH_AVAILABLE = importlib.util.find_spec("torch") is not None
TORCH_SKIP_REASON = "this block imports torch, which is not installed (pip install torch)"

OPENING_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
ANCHOR = re.compile(r"\{[^}]*#(?P<id>[\w-]+)[^}]*\}$")
TITLE = re.compile(r'title="(?P<title>[^"]*)"')
IMPORTS_TORCH = re.compile(r"^\s*(?:import|from)\s+torch\b", re.MULTILINE)
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-(0(?:\.0*)?)(?![\w.])")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


# ------------------------------------------------------------------------- reading pages


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str  # path relative to the site root, e.g. "en/guide.md"
    line: int  # 1-based line of the opening fence
    info: str  # everything after the fence characters, e.g. 'python title="x.py"'
    body: str  # the content, without the indentation of the fence
    preceded_by_text: bool  # prose between the previous block and this one

    @property
    def lang(self) -> str:
        words = self.info.split()
        return words[0] if words else ""

    @property
    def title(self) -> str:
        match = TITLE.search(self.info)
        return match["title"] if match else f"line {self.line}"


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None  # the id given with attr_list, as in "## Title {#id}"


@dataclass(frozen=True)
class Page:
    path: str  # relative to the site root, e.g. "zh/guide.md"
    blocks: tuple[Block, ...]
    headings: tuple[Heading, ...]
    prose: str  # every line outside the fenced blocks


def parse_page(path: Path, root: Path = SITE) -> Page:
    """Split a Markdown page into fenced code blocks, headings and the remaining prose."""
    relative = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    headings: list[Heading] = []
    prose: list[str] = []
    prose_since_last_block = False
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = OPENING_FENCE.match(line)
        if not opening:
            heading = HEADING.match(line)
            if heading:
                anchor = ANCHOR.search(heading["text"])
                level = len(heading["marks"])
                headings.append(Heading(level, heading["text"], anchor["id"] if anchor else None))
            prose.append(line)
            prose_since_last_block = prose_since_last_block or bool(line.strip())
            index += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        start = index
        body: list[str] = []
        index += 1
        while index < len(lines) and not closing.match(lines[index]):
            text = lines[index]
            body.append(text[len(indent) :] if text.startswith(indent) else text.lstrip())
            index += 1
        if index == len(lines):
            raise AssertionError(f"{relative}:{start + 1}: the code block is never closed")
        blocks.append(
            Block(
                page=relative,
                line=start + 1,
                info=opening["info"].strip(),
                body="".join(f"{text}\n" for text in body),
                preceded_by_text=prose_since_last_block,
            )
        )
        prose_since_last_block = False
        index += 1  # past the closing fence
    return Page(relative, tuple(blocks), tuple(headings), "\n".join(prose))


def load_pages() -> dict[str, Page]:
    """Every page that exists, keyed by its path relative to the site root."""
    pages = {}
    for lang in LANGUAGES:
        for name in PAGES:
            path = SITE / lang / name
            if path.is_file():
                pages[f"{lang}/{name}"] = parse_page(path)
    return pages


@dataclass(frozen=True)
class Example:
    """A python block and the block holding what it must print."""

    code: Block
    expected: Block | None  # None when no text block follows the python block directly


def examples(page: Page) -> list[Example]:
    found = []
    for position, block in enumerate(page.blocks):
        if block.lang != "python":
            continue
        following = page.blocks[position + 1] if position + 1 < len(page.blocks) else None
        if following and following.lang == "text" and not following.preceded_by_text:
            found.append(Example(block, following))
        else:
            found.append(Example(block, None))
    return found


PAGES_FOUND = load_pages()
ALL_EXAMPLES = [example for page in PAGES_FOUND.values() for example in examples(page)]


# ------------------------------------------------------------------------ running blocks


def normalise(text: str) -> str:
    """Compare line by line, ignoring trailing spaces, outer blank lines and the sign of 0."""
    lines = [NEGATIVE_ZERO.sub(r"\1", line.rstrip()) for line in text.splitlines()]
    return "\n".join(lines).strip("\n")


@contextlib.contextmanager
def isolated_numpy_printing() -> Iterator[None]:
    """Undo any np.set_printoptions made by a block, so blocks cannot affect each other."""
    saved = np.get_printoptions()
    try:
        yield
    finally:
        np.set_printoptions(**saved)


def run_block(block: Block) -> str:
    """Execute a block as a script in a fresh namespace; return what it printed."""
    code = compile(block.body, f"{block.page}:{block.line} ({block.title})", "exec")
    namespace: dict[str, object] = {"__name__": "__main__"}
    captured = io.StringIO()
    with isolated_numpy_printing(), contextlib.redirect_stdout(captured):
        exec(code, namespace)
    return captured.getvalue()


def imports_torch(block: Block) -> bool:
    return IMPORTS_TORCH.search(block.body) is not None


def example_param(example: Example) -> object:
    block = example.code
    marks = []
    if imports_torch(block) and not TORCH_AVAILABLE:
        marks.append(pytest.mark.skip(reason=TORCH_SKIP_REASON))
    return pytest.param(example, marks=marks, id=f"{block.page}:{block.line}:{block.title}")


@pytest.mark.parametrize("example", [example_param(e) for e in ALL_EXAMPLES])
def test_block_prints_expected_output(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = example.code
    where = f"{block.page}:{block.line} ({block.title})"
    assert example.expected is not None, (
        f"{where}: a python block must be followed directly by a ```text block "
        "holding its expected output"
    )
    expected = normalise(example.expected.body)
    assert expected, f"{where}: the expected output is empty"
    monkeypatch.chdir(tmp_path)
    printed = normalise(run_block(block))
    diff = difflib.unified_diff(
        expected.splitlines(), printed.splitlines(), "expected", "printed", lineterm=""
    )
    assert printed == expected, f"{where} printed something else:\n" + "\n".join(diff)
    leftovers = sorted(path.name for path in tmp_path.iterdir())
    assert not leftovers, f"{where} left files in the working directory: {leftovers}"


def test_guides_exist_and_have_runnable_blocks() -> None:
    for lang in LANGUAGES:
        page = PAGES_FOUND.get(f"{lang}/{GUIDE}")
        assert page is not None, f"site/{lang}/{GUIDE} is missing"
        found = examples(page)
        assert len(found) >= 5, f"{page.path}: only {len(found)} python blocks"
        assert any(imports_torch(e.code) for e in found), (
            f"{page.path}: the PyTorch example of method 1 is missing"
        )


def test_a_wrong_expected_number_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison must notice one changed digit, or the block tests prove nothing."""
    monkeypatch.chdir(tmp_path)
    candidates = [
        e
        for e in ALL_EXAMPLES
        if e.expected is not None
        and not imports_torch(e.code)
        and re.search(r"\d", e.expected.body)
    ]
    assert candidates, "no numpy-only block with numbers in its expected output"
    example = candidates[0]
    assert example.expected is not None
    printed = normalise(run_block(example.code))
    right = normalise(example.expected.body)
    assert printed == right
    digit = re.search(r"\d", right)
    assert digit is not None
    wrong = right[: digit.start()] + str((int(digit[0]) + 1) % 10) + right[digit.end() :]
    assert printed != normalise(wrong)


def test_normalise() -> None:
    assert normalise("\n[1. 2.]   \n\n") == "[1. 2.]"
    assert normalise("[-0.  1.]\n-0.0 -0") == "[0.  1.]\n0.0 0"
    assert normalise("-0.2 -0.01 -10.5 x-0") == "-0.2 -0.01 -10.5 x-0"
    assert normalise("0.2") != normalise("0.3")


def test_parser_on_a_small_page(tmp_path: Path) -> None:
    lines = [
        "# Title",
        "",
        '```python title="a.py"',
        "# a comment, not a heading",
        "print(1)",
        "```",
        "",
        "```text",
        "1",
        "```",
        "",
        "## Section {#section}",
        "",
        "Some [link](guide.md).",
        "",
        "    ```python",
        "    print(2)",
        "    ```",
    ]
    path = tmp_path / "en" / "page.md"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = parse_page(path, root=tmp_path)
    assert page.path == "en/page.md"
    assert [(h.level, h.anchor) for h in page.headings] == [(1, None), (2, "section")]
    assert [(b.lang, b.line, b.body) for b in page.blocks] == [
        ("python", 3, "# a comment, not a heading\nprint(1)\n"),
        ("text", 8, "1\n"),
        ("python", 16, "print(2)\n"),
    ]
    assert page.blocks[0].title == "a.py"
    assert "print" not in page.prose
    assert "[link](guide.md)" in page.prose
    found = examples(page)
    assert found[0].expected is page.blocks[1]
    assert found[1].expected is None


# -------------------------------------------------------------- the languages in step


def pair(name: str) -> tuple[Page, Page]:
    en, zh = PAGES_FOUND.get(f"en/{name}"), PAGES_FOUND.get(f"zh/{name}")
    assert en is not None, f"site/en/{name} is missing"
    assert zh is not None, f"site/zh/{name} is missing"
    return en, zh


@pytest.mark.parametrize("name", PAGES)
def test_headings_match_across_languages(name: str) -> None:
    en, zh = pair(name)
    assert [h.level for h in en.headings] == [h.level for h in zh.headings], (
        f"{name}: the heading levels differ\n"
        f"en: {[h.text for h in en.headings]}\nzh: {[h.text for h in zh.headings]}"
    )
    assert [h.anchor for h in en.headings] == [h.anchor for h in zh.headings], (
        f"{name}: the heading anchors {{#id}} differ"
    )


@pytest.mark.parametrize("name", PAGES)
def test_code_blocks_match_across_languages(name: str) -> None:
    en, zh = pair(name)
    assert len(en.blocks) == len(zh.blocks), (
        f"{name}: {len(en.blocks)} code blocks in English, {len(zh.blocks)} in Chinese"
    )
    for a, b in zip(en.blocks, zh.blocks, strict=True):
        assert (a.info, a.body) == (b.info, b.body), (
            f"{name}: the code block at en line {a.line} differs from the one at zh line {b.line}"
        )


def test_chinese_guide_uses_the_agreed_terms() -> None:
    _, zh = pair(GUIDE)
    for term in ("可微", "不可微", "未定义"):
        assert term in zh.prose, f"zh/{GUIDE} never says {term}"


@pytest.mark.parametrize("path", sorted(PAGES_FOUND))
def test_links_between_pages_resolve(path: str) -> None:
    """Links to sibling pages and their anchors must exist; operator pages come later."""
    page = PAGES_FOUND[path]
    lang = path.split("/")[0]
    for match in LINK.finditer(page.prose):
        target = match["target"]
        if re.match(r"^[a-z]+:", target) or target.startswith("operators/"):
            continue  # external, or generated when the site is built
        file_part, _, anchor = target.partition("#")
        linked = f"{lang}/{file_part}" if file_part else path
        assert (SITE / linked).is_file(), f"{path}: the link {target} points to no page"
        if anchor:
            other = PAGES_FOUND.get(linked) or parse_page(SITE / linked)
            anchors = {h.anchor for h in other.headings}
            assert anchor in anchors, f"{path}: {linked} has no heading #{anchor}"
