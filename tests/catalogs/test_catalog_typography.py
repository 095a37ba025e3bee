"""The Chinese catalogs are typeset as Chinese: the rules of ``templates/locale/zh/GLOSSARY.md``.

Every ``msgstr`` of every Chinese catalog (the labels and the schema text) is checked with
its code spans, formulas, URLs, link targets, HTML tags and fenced code blocks masked out:
those are kept exactly as in English and follow no Chinese rule. A code span, formula or URL
counts as a Latin word for the spacing rule.
"""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
ZH = ROOT / "templates" / "locale" / "zh"
CATALOGS = sorted((ZH / "LC_MESSAGES").glob("*.po"))
DOCUMENTS = sorted((ROOT / "docs" / "zh").glob("*.md"))

HAN = "[\u3400-\u4dbf\u4e00-\u9fff]"
FULL_WIDTH = "，。：；？！、（）“”"
LATIN = "[A-Za-z0-9\x01]"  # \x01: a masked code span, formula or URL
LIST_ITEM = r"(?:\d+[.)]|[-*+])[ \t]"
URL = r"https?://[^\s()<>\[\]\x80-\U0010ffff]*[^\s()<>\[\].,;:\x80-\U0010ffff]"
FENCED = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*", re.S | re.M)
LINK_TARGET = re.compile(r"\]\([^)]+\)")
CODE = [
    re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S),
    re.compile(r"\$\$.+?\$\$", re.S),
    re.compile(r"(?<!\$)\$[^$\n]+\$(?!\$)"),
    re.compile(r"<https?://[^>\s]+>"),
    re.compile(URL),
]
HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*\s*/?>")
PLACEHOLDER = re.compile(r"%\(\w+\)s")
LIST_MARKER = re.compile(r"^([ \t]*(?:\|[ \t]*)?)\d+[.)](?=[ \t])", re.M)
# A heading's or a quote's marker and the space after it: Markdown, not a space in the text.
BLOCK_MARKER = re.compile(r"^[ \t]*(?:#{1,6}|>)[ \t]+", re.M)

RULES = {
    "no space between Chinese and Latin": re.compile(f"{HAN}-?{LATIN}|{LATIN}{HAN}"),
    "space between Chinese characters": re.compile(f"{HAN}[ \t]+{HAN}"),
    "space next to full-width punctuation": re.compile(
        f"^(?!\\s*\\|).*?(?:\\S[ \t]+[{FULL_WIDTH}]|[{FULL_WIDTH}][ \t]+\\S)", re.M
    ),
    "ASCII punctuation next to Chinese": re.compile(f"{HAN}[,;:?!]|[,;:?!][ \t]*{HAN}"),
    "ASCII parentheses around Chinese": re.compile(f"\\([^()\n]*{HAN}[^()\n]*\\)"),
    "ASCII parentheses around a URL in Chinese": re.compile(f"(?:{HAN}|[{FULL_WIDTH}])\\(\x01\\)"),
    "ASCII full stop before Chinese": re.compile(f"(?<!\\.)\\.[ \t]*\n?[ \t]*(?!{LIST_ITEM}){HAN}"),
    "ASCII full stop ending a sentence": re.compile(r"(?<![.\s])\.[ \t]*$", re.M),
    "bare URL followed by Chinese": re.compile(f"(?<![<(]){URL}(?=[^\\x00-\\x7f])"),
    "ASCII full stop after Chinese": re.compile(f"{HAN}\\*{{0,3}}\\.(?!\\.)"),
    "ASCII quote next to Chinese": re.compile(f"{HAN}['\"]|['\"]{HAN}"),
    "ASCII parentheses around a range after Chinese": re.compile(
        f"{HAN}[ \t]*\\([^()\n]*[\u2013~][^()\n]*\\)"
    ),
}


CODE_LINE = ("//", "#", "/*", "|", ">")


def line_breaks(text: str) -> list[str]:
    """Line breaks inside Chinese prose: both lines hold Chinese and the break sits between
    Chinese (or full-width punctuation) and a Chinese or Latin character, either way round.
    A list item (and the line after it), a table row, a quote and a line of commented code
    keep their own lines."""
    lines = text.split("\n")
    found = []
    for before, after in itertools.pairwise(lines):
        a, b = before.rstrip(), after.lstrip()
        if not (re.search(HAN, a) and re.search(HAN, b)):
            continue
        if re.match(LIST_ITEM, b) or a.lstrip().startswith(CODE_LINE) or b.startswith(CODE_LINE):
            continue
        if re.match(LIST_ITEM, a.lstrip()):
            continue  # the sentence after a list starts a paragraph of its own
        if any(comment in line for comment in ("//", "/*") for line in (a, b)):
            continue  # pseudo-code whose comments are translated
        end, start = a[-1:], b[:1]
        chinese = f"{HAN}|[{FULL_WIDTH}]"
        if (re.match(chinese, end) and re.match(f"{HAN}|{LATIN}", start)) or (
            re.match(LATIN, end) and re.match(HAN, start)
        ):
            found.append(f"{end}\n{start}")
    return found


def masked(text: str) -> str:
    """``text`` with what English keeps masked: code as ``\\x01``, the rest as ``\\x00``."""
    text = FENCED.sub("\x00", text)
    text = LINK_TARGET.sub("\x00", text)
    for pattern in CODE:
        text = pattern.sub("\x01", text)
    text = HTML_TAG.sub("\x00", text)
    text = LIST_MARKER.sub(r"\1-", text)
    text = BLOCK_MARKER.sub("", text)
    return PLACEHOLDER.sub("\x00", text)


def avoided_renderings() -> dict[str, str]:
    """The glossary's "One rendering per phrase" table: each avoided rendering -> the one used."""
    text = (ZH / "GLOSSARY.md").read_text(encoding="utf-8")
    section = text.split("## One rendering per phrase", 1)[1]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| ")]
    return {cells[2].strip(): cells[1].strip() for cells in rows[1:]}


def problems(text: str) -> list[str]:
    """Every rule ``text`` breaks, as ``rule: excerpt``; a text without Chinese breaks none."""
    if not re.search(HAN, text):
        return []
    found = []
    plain = FENCED.sub("\x00", text)
    for name, rule in RULES.items():
        subject = plain if name.startswith("bare URL") else masked(text)
        found += [f"{name}: {m.group(0)!r}" for m in rule.finditer(subject)]
    found += [f"line break inside a Chinese paragraph: {b!r}" for b in line_breaks(masked(text))]
    for avoided, used in avoided_renderings().items():
        pattern = "(?<!倘)若(?!干)" if avoided == "若" else re.escape(avoided)
        if re.search(pattern, text):
            found.append(f"{avoided!r} where the glossary uses {used!r}")
    return found


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_every_chinese_message_follows_the_typography_rules(path: Path) -> None:
    with path.open("rb") as f:
        catalog = read_po(f)
    found = [
        f"{str(message.id)[:40]!r}: {problem}"
        for message in catalog
        if message.id
        for text in _strings(message)
        for problem in problems(text or "")
    ]
    assert found == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("沿轴`axis`计算", "no space between Chinese and Latin"),
        ("共有3个输入", "no space between Chinese and Latin"),
        ("默认值-2 表示倒数第二个维度", "no space between Chinese and Latin"),
        ("如果为 `true` ，则返回", "space next to full-width punctuation"),
        ("输入张量, 其形状", "ASCII punctuation next to Chinese"),
        ("见 (上文的说明)", "ASCII parentheses around Chinese"),
        ("使用显式填充时(https://pytorch.org/x)：", "ASCII parentheses around a URL in Chinese"),
        ("这\n意味着", "line break inside a Chinese paragraph"),
        ("形状为\n`[N, C]` 的张量", "line break inside a Chinese paragraph"),
        ("见论文 https://arxiv.org/abs/1502.03167. 根据", "ASCII full stop before Chinese"),
        ("且 W.shape[0] mod G == 0. 换言之", "ASCII full stop before Chinese"),
        ("其描述见 `x = 1`.", "ASCII full stop ending a sentence"),
        ("见 https://arxiv.org/abs/1502.03167。", "bare URL followed by Chinese"),
        ("负值表示从末尾开始计数维度。", "'从末尾开始计数' where the glossary uses"),
        ("若未指定", "'若' where the glossary uses"),
        ("> **可微性.** 每个输入", "ASCII full stop after Chinese"),
        ("此版本的算子自'ai.onnx.ml' 算子集第 1 版起可用。", "ASCII quote next to Chinese"),
        ("#### 输入 (1 – 4)", "ASCII parentheses around a range after Chinese"),
        ("导入 默认域 ai.onnx 的模型", "space between Chinese characters"),
        ("<dt>`X`（可微） : `T`</dt>", "space next to full-width punctuation"),
    ],
)
def test_each_rule_catches_what_it_names(text: str, rule: str) -> None:
    assert any(p.startswith(rule) for p in problems(text)), problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "沿轴 `axis` 计算 2 个维度；如果为 `true`，则返回 $x^2$。",
        "见论文 <https://arxiv.org/abs/1502.03167>。形状为 (N, C, H, W) 的张量。",
        "- 第一项\n- 第二项\n1. 另一项",
        "| 形状 | 说明 |\n| (P, Q) | ( )  （标量）   |",
        "```\n// 注释\nx = 1.\n```",
        "  // 计算新值。\n  X_new = X - G;\n  // 再计算。",
        "  int a = b; // 读取外层的值\n  b = a - b; // 写入 b",
        "若干个维度。",
        "Any English text, wrapped\nas it is.",
    ],
)
def test_what_the_rules_allow(text: str) -> None:
    assert problems(text) == []


# Elements whose text is not Chinese prose: code, formulas, scripts, drawings; and the
# navigation, which repeats the titles of the pages and headings with their badges flattened
# into words (the titles are read where they stand), as a table of contents does.
NOT_PROSE = frozenset({"head", "nav", "pre", "math", "script", "style", "svg", "template"})
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "source", "col"})
# Elements that end a line of text: a block, a cell, an item.
BLOCKS = frozenset(
    [
        "p",
        "li",
        "dt",
        "dd",
        "div",
        "tr",
        "td",
        "th",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "summary",
        "caption",
        "button",
        "option",
        "label",
        "section",
        "nav",
        "header",
        "footer",
        "main",
        "article",
        "aside",
        "details",
        "figure",
        "figcaption",
        "table",
        "ul",
        "ol",
        "dl",
    ]
)


class _ReaderText(HTMLParser):
    """The text of a page as a Chinese reader reads it, one block a line: code blocks left
    out, inline code and formulas kept as a code span and ``$x$`` (Latin words for the
    spacing rule), a link's URL as an autolink, a table cell as a catalog's table row, a
    badge (a classed span, a marker in ``<sub>``) as a line of its own; the page's head is
    left out, and so is every element marked ``lang="en"`` (English on purpose: an
    untranslated paragraph, an English source quoted)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[tuple[str, bool]] = []  # (tag, whether its text is left out)

    def _skipping(self) -> bool:
        return bool(self.open) and self.open[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            if tag == "br" and not self._skipping():
                self.out.append("\n")
            return
        lang, classes = dict(attrs).get("lang"), (dict(attrs).get("class") or "").split()
        toc = any("toc" in c for c in classes)  # a table of contents: the titles again
        skip = tag in NOT_PROSE or toc or (lang is not None and not lang.startswith("zh"))
        if tag == "math" and not self._skipping():
            self.out.append("$x$")  # a formula: a Latin word for the spacing rule
        self.open.append((tag, skip or self._skipping()))
        if not self._skipping():
            # A cell as the catalogs' table rows: its alignment spaces are not text.
            opening = {"code": "`", "td": "\n| ", "th": "\n| "}
            # A badge (a classed span: a tag, an option) is a box of its own, set apart.
            badge = tag == "sub" or (tag == "span" and dict(attrs).get("class"))
            self.out.append(opening.get(tag, "\n" if tag in BLOCKS or badge else ""))

    def handle_endtag(self, tag: str) -> None:
        if all(t != tag for t, _ in self.open):
            return
        while self.open:
            opened, skipped = self.open.pop()
            if opened == "code" and not skipped:
                self.out.append("`")
            if opened == tag:
                break
        if tag in BLOCKS or tag in ("span", "sub"):
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skipping():
            return
        if self.open and self.open[-1][0] == "a" and re.match("https?://", data):
            data = f"<{data}>"  # a link's text, delimited as an autolink delimits it
        self.out.append(data)


def reader_lines(document: str) -> list[str]:
    """The lines of prose of a Markdown or HTML document (fenced code left out)."""
    parser = _ReaderText()
    parser.feed(FENCED.sub("\n", document))
    parser.close()
    return [line for line in "".join(parser.out).split("\n") if line.strip()]


def document_problems(document: str) -> list[tuple[str, str]]:
    """Every typography rule a line of prose of ``document`` breaks, as (line, problem)."""
    return [(line[:60], p) for line in reader_lines(document) for p in problems(line)]


CHINESE = re.compile(f"{HAN}|[\u3000-\u303f\uff00-\uffef]")
ENGLISH_WORD = re.compile(r"(?<![\w.'-])[A-Za-z][a-z]+(?:-[a-z]+)*(?![\w.(-])")
"""A word of English prose: letters alone; a name with a digit, an underscore, a dot or a call's
parenthesis (``test_abs``, ``torch.abs(``, ``v1.19``) is an identifier, not a word."""


def english_like(text: str) -> bool:
    """Whether ``text`` reads as English prose: no Chinese character and two words or more."""
    return not CHINESE.search(text) and len(ENGLISH_WORD.findall(text)) >= 2


class _TextNodes(HTMLParser):
    """The text nodes of a page a Chinese reader reads as prose: the head, code and every
    element marked ``lang`` other than Chinese (an English source quoted) left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.open: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        lang = dict(attrs).get("lang")
        skip = tag in NOT_PROSE or tag == "code" or (lang is not None and not lang.startswith("zh"))
        self.open.append((tag, skip or (bool(self.open) and self.open[-1][1])))

    def handle_endtag(self, tag: str) -> None:
        while any(t == tag for t, _ in self.open):
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and not (self.open and self.open[-1][1]):
            self.nodes.append(data.strip())


def prose_nodes(document: str) -> list[str]:
    """The text nodes of an HTML page outside code and English-marked elements."""
    parser = _TextNodes()
    parser.feed(document)
    parser.close()
    return parser.nodes


def test_english_prose_is_told_from_names_and_quotes() -> None:
    page = (
        "<html><head><title>not counted here</title></head><body>"
        '<td>拒绝求导<span class="gd-why">stop-gradient edge</span></td>'
        '<td>梯度非零</td><td><span lang="en">torch.clamp(input, min, max) is quoted</span></td>'
        "<td><code>no counterpart in the torch call</code></td>"
        "<td>test_abs at_opset v1.19.2</td><td>onnx-ad 0.3.0</td><td>pytorch</td></body></html>"
    )
    nodes = prose_nodes(page)
    names = ["test_abs at_opset v1.19.2", "onnx-ad 0.3.0", "pytorch"]
    assert nodes == ["拒绝求导", "stop-gradient edge", "梯度非零", *names]
    assert [n for n in nodes if english_like(n)] == ["stop-gradient edge"]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.stem)
def test_the_built_chinese_documents_follow_the_typography_rules(path: Path) -> None:
    """docs/zh as gendoc builds it (``make check``): the catalogs' text and what the
    templates write around it, separators, brackets and quotes included."""
    assert document_problems(path.read_text(encoding="utf-8")) == []


def test_what_the_templates_wrote_before_is_caught() -> None:
    document = (
        "> **可微性.** 每个输入和输出都带有一个标签。\n\n"
        "#### 输入 (1 – 4)\n\n"
        "<dl>\n<dt><code>X</code>（可微） : <code>T1</code></dt>\n</dl>\n"
        "此版本的算子自'ai.onnx.ml' 算子集第 1 版起可用。\n"
        '<div class="gd-untranslated" lang="en"><p>English, as it is: 1 . 2</p></div>\n'
        "```\nx = 1 # 注释.\n```\n<pre><code>代码.</code></pre>\n"
    )
    rules = [problem.split(":")[0] for _, problem in document_problems(document)]
    assert rules == [
        "ASCII full stop after Chinese",
        "ASCII parentheses around a range after Chinese",
        "space next to full-width punctuation",
        "ASCII quote next to Chinese",
    ]
