"""Visible escapes: what gendoc prints from a document, a snapshot or a schema cannot act.

A report (``check``'s diff, ``diff``, ``audit``), an error line or an annotation
quotes text that others wrote: lines of a committed document, names from a
snapshot or a schema module. Raw, a control character in it drives the terminal
(ESC and CSI sequences set the title, write the clipboard with OSC 52, erase a
line to print a fake message), and a bidirectional control (U+202E and its
kin) makes a browser or a terminal show the rest of a line reversed, so a tag
change can read as its opposite. Every such character is written as a visible
escape instead (``\\x1b``, ``\\x9b``, ``\\u202e``): C0 but tab and newline, DEL,
C1, and the bidi controls. An escape is plain text in a terminal, in Markdown
(a backslash before a letter is no escape there) and in a workflow command, and
unlike a character reference it is not turned back into the character when
Markdown is rendered.
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ACTIVE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]")
_ACTIVE_IN_JSON = re.compile(f"[\\x7f-\\x9f{BIDI_CONTROLS}]")  # json.dumps escapes C0 itself


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline, and every bidi control,
    written as a visible escape."""
    return _ACTIVE.sub(_escape, text)


def visible_json(text: str) -> str:
    """JSON text (from ``json.dumps``) with DEL, C1 and bidi controls as ``\\u`` escapes.

    These characters can only be inside strings, so the JSON means the same.
    """
    return _ACTIVE_IN_JSON.sub(_json_escape, text)
