"""Just enough C++ lexing to find and split onnx's schema builder calls safely.

onnx's operator definitions are builder chains full of documentation:
string literals and raw strings R"DOC(...)DOC" hold parentheses, quotes and
commas, and so do comments. Instead of a C++ parser, :func:`mask` blanks the
inside of every comment and literal (keeping offsets and newlines), so
bracket matching and searching run on the masked text while the original text
still gives each argument's exact spelling.

Everything here is linear in the size of the file: :func:`scan` pairs every
bracket in one pass, so finding a closing or an opening bracket is a look-up
rather than a walk, splitting a call's arguments jumps over nested brackets,
and a line number is a binary search in the offsets of the newlines. A source
file is read in time proportional to its size whatever it holds (a file of
unmatched brackets included).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

_RAW_START = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')
_OPEN = "([{"


class Unbalanced(ValueError):
    """A bracket that is never closed, at ``offset`` of the masked text."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"unbalanced bracket at offset {offset}")
        self.offset = offset


_LEXEME = re.compile(r"""//|/\*|(?:u8|u|U|L)?R"|["']""")
_NOT_NEWLINE = re.compile(r"[^\n]")


def mask(text: str) -> str:
    """``text`` with every comment and literal body replaced by spaces (newlines kept).

    String and character literals keep their quotes, so a masked argument still
    shows whether it was a literal.
    """
    out, done, i, n = [], 0, 0, len(text)
    while (found := _LEXEME.search(text, i)) is not None:
        i, lexeme = found.start(), found[0]
        if lexeme in ("//", "/*"):
            end = text.find("\n" if lexeme == "//" else "*/", i + 2)
            end = n if end < 0 else end + (0 if lexeme == "//" else 2)
            blank = i
        elif lexeme.endswith('R"'):
            raw = _RAW_START.match(text, i)
            if raw is None or _ident_char(text, i - 1):
                i += 1
                continue
            close = text.find(f'){raw[1]}"', raw.end())
            end, blank = (n if close < 0 else close + len(raw[1]) + 2), i + 1
        elif lexeme == "'" and _ident_char(text, i - 1):
            i += 1
            continue
        else:
            end, blank = _literal_end(text, i), i + 1
        # comments are blanked whole; a literal keeps its opening and closing quote
        stop = max(blank, end if blank == i else end - 1)
        out += [text[done:blank], _NOT_NEWLINE.sub(" ", text[blank:stop])]
        done, i = stop, end
    out.append(text[done:])
    return "".join(out)


def _ident_char(text: str, i: int) -> bool:
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


_LITERAL_BODY = {q: re.compile(rf"(?:[^{q}\\\n]|\\[\s\S])*") for q in "\"'"}


def _literal_end(text: str, start: int) -> int:
    """The offset just past the quoted literal that opens at ``start``.

    A literal ends at its closing quote, or unterminated at the end of its line.
    """
    end = _LITERAL_BODY[text[start]].match(text, start + 1).end()
    return end + 1 if end < len(text) and text[end] in "\"'\n" else len(text)


@dataclass(frozen=True)
class Span:
    """A half-open range of offsets into a source text."""

    start: int
    end: int


def _pairs(masked: str) -> dict[int, int]:
    """Each bracket's partner, both ways, by nesting depth alone (``(]`` pairs too).

    A closing bracket with nothing open has no partner; so has an opening
    bracket that is never closed.
    """
    partner: dict[int, int] = {}
    stack: list[int] = []
    for match in re.finditer(r"[()\[\]{}]", masked):
        at = match.start()
        if masked[at] in _OPEN:
            stack.append(at)
        elif stack:
            opened = stack.pop()
            partner[opened] = at
            partner[at] = opened
    return partner


@dataclass(frozen=True)
class Scan:
    """A source text, its masked form, its bracket pairs and its line starts."""

    text: str
    masked: str
    partner: dict[int, int] = field(repr=False)
    newlines: list[int] = field(repr=False)

    def closing(self, open_at: int) -> int:
        """The offset of the bracket that closes the one at ``open_at``."""
        close_at = self.partner.get(open_at)
        if close_at is None:
            raise Unbalanced(open_at)
        return close_at

    def opening(self, close_at: int) -> int:
        """The offset of the bracket that the one at ``close_at`` closes, or -1."""
        return self.partner.get(close_at, -1)

    def arguments(self, open_at: int, close_at: int) -> list[Span]:
        """The top-level arguments between the brackets at ``open_at`` and ``close_at``.

        Each span is trimmed of surrounding whitespace; an empty list for ``()``.
        Nested brackets are jumped over, never read.
        """
        spans, start, i = [], open_at + 1, open_at + 1
        while (stop := _COMMA_OR_OPEN.search(self.masked, i, close_at)) is not None:
            if stop[0] == ",":
                spans.append(_trim(self.masked, start, stop.start()))
                start = stop.end()
            i = stop.end() if stop[0] == "," else self.closing(stop.start()) + 1
        spans.append(_trim(self.masked, start, close_at))
        if len(spans) == 1 and spans[0].start == spans[0].end:
            return []
        return spans

    def line(self, offset: int) -> int:
        """The 1-based line number of ``offset``."""
        return bisect.bisect_left(self.newlines, offset) + 1


_COMMA_OR_OPEN = re.compile(r"[,(\[{]")


def scan(text: str) -> Scan:
    """Mask ``text`` and index it, in one linear pass each."""
    masked = mask(text)
    newlines = [m.start() for m in re.finditer("\n", text)]
    return Scan(text, masked, _pairs(masked), newlines)


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
