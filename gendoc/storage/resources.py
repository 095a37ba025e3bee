"""Where gendoc's own templates and message catalogs are, found one way.

They live in the repository's top-level ``templates/`` folder, the layout
users read and copy from. ``gendoc/templates`` is a symbolic link to it, so
the package carries the folder both in a checkout and in the wheel (the
build backend follows the link), and :func:`templates_root` finds it
through :mod:`importlib.resources` the same way in both.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from gendoc.errors import UsageError


@cache
def templates_root() -> Path:
    """The folder of the built-in templates; ``locale/`` inside it holds the catalogs."""
    root = Path(str(files("gendoc") / "templates"))
    if not root.is_dir():
        raise UsageError(f"gendoc's own templates are missing from this installation: {root}")
    return root
