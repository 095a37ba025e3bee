"""Where each generated page goes: one path per domain and operator, never two alike.

Domain and operator names come from schemas, and anyone can register one.
A name becomes a path segment as it is when it is a harmless identifier,
and a stable hash (``x-`` and 12 hex digits) otherwise: when it could choose
where a page is written (a slash, ``..``), when it is too long for a file
name, when it is spelled like a page gendoc generates itself (``index``),
when it differs only in case from a name already placed (a case-insensitive
file system would merge the two files), or when a custom domain is spelled
like the default one (``ai.onnx``). Names are placed in the model's sorted
order, so the same schemas always get the same paths.
"""

from __future__ import annotations

import hashlib
import re

from gendoc.model.reference import DEFAULT_DOMAIN, Reference, domain_label

_SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")
MAX_SEGMENT = 100
"""Longest name kept as it is; file systems allow 255 bytes, and ``.html`` is added."""
RESERVED = frozenset({"index"})


def hashed(name: str) -> str:
    return "x-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _segment(name: str, taken: set[str], *, keep: bool = True) -> str:
    plain = (
        keep
        and _SAFE_NAME.fullmatch(name) is not None
        and ".." not in name
        and len(name) <= MAX_SEGMENT
        and name.lower() not in RESERVED
        and name.lower() not in taken
    )
    segment = name if plain else hashed(name)
    taken.add(segment.lower())
    return segment


class PagePaths:
    """The docs-relative paths of the domain indexes and operator pages of one reference."""

    def __init__(self, reference: Reference) -> None:
        domains: set[str] = set()
        self._domains: dict[str, str] = {}
        self._operators: dict[tuple[str, str], str] = {}
        for domain in reference.domains:
            spelled_as_default = bool(domain) and domain == DEFAULT_DOMAIN
            folder = _segment(domain_label(domain), domains, keep=not spelled_as_default)
            self._domains[domain] = folder
            names: set[str] = set()
            for op in reference.operators(domain):
                self._operators[(domain, op.name)] = _segment(op.name, names)

    def domain_index(self, domain: str) -> str:
        return f"operators/{self._domains[domain]}/index.md"

    def domain_segment(self, domain: str) -> str:
        """The domain's name as a path segment (its folder, its data file's name)."""
        return self._domains[domain]

    def operator_page(self, domain: str, name: str) -> str:
        return f"operators/{self._domains[domain]}/{self._operators[(domain, name)]}.md"

    def opsets_index(self, domain: str) -> str:
        """The page listing a domain's operator set versions."""
        return f"opsets/{self._domains[domain]}/index.md"

    def opset_page(self, domain: str, version: int) -> str:
        return f"opsets/{self._domains[domain]}/{version}.md"

    def anchor(self, domain: str, name: str) -> str:
        """The id of an operator's section on the audit page."""
        key = f"{self._domains[domain]}/{self._operators[(domain, name)]}"
        plain = key.replace(".", "-").replace("/", "-").lower()
        return plain if _SAFE_NAME.fullmatch(plain) else hashed(key)


def markdown_url(page_url: str) -> str:
    """Where a page's Markdown is, beside it: ``Reshape.html`` -> ``Reshape.md``, and with
    directory URLs ``Reshape/`` -> ``Reshape/index.md``."""
    if page_url.endswith("/"):
        return f"{page_url}index.md"
    return page_url.removesuffix(".html") + ".md"
