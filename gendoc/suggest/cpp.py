"""Just enough C++ lexing to find and split onnx's schema builder calls safely.

onnx's operator definitions are builder chains full of documentation:
string literals and raw strings R"DOC(...)DOC" hold parentheses, quotes and
commas, and so do comments. Instead of a C++ parser, :func:`mask` blanks the
inside of every comment and literal (keeping offsets and newlines), so
bracket matching and searching run on the masked text while the original text
still gives each argument's exact spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RAW_START = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')
_OPEN = "([{"
_CLOSE = ")]}"


def mask(text: str) -> str:
    """``text`` with every comment and literal body replaced by spaces (newlines kept).

    String and character literals keep their quotes, so a masked argument still
    shows whether it was a literal.
    """
    out = list(text)
    i, n = 0, len(text)

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif (raw := _RAW_START.match(text, i)) and not _ident_char(text, i - 1):
            close = text.find(f'){raw[1]}"', raw.end())
            end = n if close < 0 else close + len(raw[1]) + 2
            blank(i + 1, end - 1)
            i = end
        elif c == '"' or (c == "'" and not _ident_char(text, i - 1)):
            end = _literal_end(text, i)
            blank(i + 1, end - 1)
            i = end
        else:
            i += 1
    return "".join(out)


def _ident_char(text: str, i: int) -> bool:
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


def _literal_end(text: str, start: int) -> int:
    """The offset just past the quoted literal that opens at ``start``."""
    quote, i = text[start], start + 1
    while i < len(text) and text[i] != quote and text[i] != "\n":
        i += 2 if text[i] == "\\" else 1
    return min(i + 1, len(text))


def closing(masked: str, open_at: int) -> int:
    """The offset of the bracket that closes the one at ``open_at`` in masked text."""
    depth = 0
    for i in range(open_at, len(masked)):
        c = masked[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced bracket at offset {open_at}")


@dataclass(frozen=True)
class Span:
    """A half-open range of offsets into a source text."""

    start: int
    end: int


def arguments(masked: str, open_at: int, close_at: int) -> list[Span]:
    """The top-level arguments between the brackets at ``open_at`` and ``close_at``.

    Each span is trimmed of surrounding whitespace; an empty list for ``()``.
    """
    spans, depth, start = [], 0, open_at + 1
    for i in range(open_at + 1, close_at + 1):
        c = masked[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE and i < close_at:
            depth -= 1
        elif (c == "," and depth == 0) or i == close_at:
            spans.append(_trim(masked, start, i))
            start = i + 1
    if len(spans) == 1 and spans[0].start == spans[0].end:
        return []
    return spans


def _trim(masked: str, start: int, end: int) -> Span:
    while start < end and masked[start].isspace():
        start += 1
    while end > start and masked[end - 1].isspace():
        end -= 1
    return Span(start, end)


_SIMPLE_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def string_value(text: str) -> str | None:
    """The value of ``text`` when it is one plain string literal, else ``None``."""
    match = _SIMPLE_STRING.fullmatch(text)
    return None if match is None else re.sub(r"\\(.)", r"\1", match[1])


def line_of(text: str, offset: int) -> int:
    """The 1-based line number of ``offset``."""
    return text.count("\n", 0, offset) + 1
