"""The theme's files the site does not ship.

Material brings its own search (a web worker and lunr with a file per
language, about 1 MB) and the source maps of its scripts and style sheets
(``*.map``, about 1.3 MB, for debugging the theme itself). The site searches
with Pagefind and serves the minified files, so neither is ever requested;
they are taken out of the build's files before mkdocs copies them.
"""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

from mkdocs.structure.files import Files

UNUSED = (
    "assets/javascripts/workers/search.*",
    "assets/javascripts/lunr/*",
    "*.map",
)


def drop_unused(files: Files, docs_dir: str) -> Files:
    """``files`` without the theme's :data:`UNUSED` ones; the files of ``docs_dir`` stay."""
    docs = Path(docs_dir).resolve()
    for file in list(files):
        if file.src_dir is None or Path(file.src_dir).resolve() == docs:
            continue
        if any(fnmatch(file.src_uri, pattern) for pattern in UNUSED):
            files.remove(file)
    return files
