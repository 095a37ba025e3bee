"""The kinds of page the search ranks, read back from the index Pagefind wrote.

The search panel ranks results by the kind of page (operator pages, then operator-set
pages, then the others, the evidence pages last). Pagefind's own marks cannot say that
deterministically: it writes several filter values or sort keys in the order of a hash
map, which changes from run to run. So each run's bundle carries, per index language,
``kinds-<code>.json``: the Pagefind id of each page of a ranked kind (its fragment's name),
read back from the fragments Pagefind wrote, by the folder the page's URL starts with
(:data:`KIND_FOLDERS`); a page of no listed kind is "other".
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

KINDS = "kinds-{code}.json"
"""In a bundle: the Pagefind ids of the pages of each kind the search ranks, per index language."""
KIND_FOLDERS = {"operators": "operator", "opsets": "opset", "evidence": "evidence"}
"""The kind of a page by the first folder of its path under its language's root."""
FRAGMENT = "pagefind_dcd"
"""What a fragment of Pagefind's bundle starts with, once unzipped, before its JSON."""


def page_kind(url: str) -> str | None:
    """The kind of the page at ``url`` (from the site's root, as Pagefind gives it), or
    ``None`` for any other page: by its first folder, after a language's folder if any. The
    indexes of operators and operator sets are not of their kind; that of the evidence is."""
    parts = url.strip("/").split("/")
    if parts[0] not in KIND_FOLDERS:
        parts = parts[1:]  # a language's folder (zh/), or a page at the root
    kind = KIND_FOLDERS.get(parts[0]) if parts else None
    if kind != "evidence" and url.endswith(("/", "/index.html")):
        return None
    return kind


def write_kinds(bundle: Path) -> None:
    """``kinds-<code>.json`` of each index language of ``bundle``: the ids of its pages by
    kind, each list sorted."""
    found: dict[str, dict[str, list[str]]] = {}
    for path in sorted((bundle / "fragment").glob("*.pf_fragment")):
        code = path.stem.rpartition("_")[0]
        data = gzip.decompress(path.read_bytes())
        fragment = json.loads(data.removeprefix(FRAGMENT.encode()))
        kinds = found.setdefault(code, {kind: [] for kind in KIND_FOLDERS.values()})
        kind = page_kind(fragment.get("url", ""))
        if kind is not None:
            kinds[kind].append(path.stem)
    for code, kinds in found.items():
        text = json.dumps(kinds, separators=(",", ":"))
        (bundle / KINDS.format(code=code)).write_text(text, encoding="utf-8")
