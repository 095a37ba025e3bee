"""The end of ``mkdocs build``'s process: what the build made is left to the operating system.

When ``mkdocs build`` is over, Python frees every object of the process one by
one before it exits: the model, both languages' rendered pages, the theme's and
the pages' compiled templates, mkdocs' files and navigation. For this site that
took a quarter of a second of the build's time, spent on memory the operating
system takes back at once anyway. :func:`keep_until_exit` keeps every object
the garbage collector tracks (and so what they hold) out of that: the
interpreter still ends as usual (``atexit`` handlers run, the exit status is
mkdocs' own), it only no longer frees them.
"""

from __future__ import annotations

import gc


def keep_until_exit() -> None:
    """Keep every object alive to the end of the process: a list that holds them all and
    itself, moved with them into the collector's permanent generation, which no collection
    (not even the interpreter's last) visits. Only for a process about to end: nothing it
    made is freed any more."""
    kept: list[object] = gc.get_objects()
    kept.append(kept)
    gc.freeze()
