"""The site's other languages, built in a second process beside the first one.

mkdocs-static-i18n builds the languages one after another: the first
language's build runs the others' from its ``on_post_build``. Each is
Python-bound work (rendering pages, converting, writing), so on a machine
with two cores one of them idles through the whole site. When ``mkdocs
build`` runs where a process can fork and there is a second core, the
plugin forks as soon as the first language's files are sorted: the child
builds the other languages exactly as the i18n plugin would and exits; the
parent builds the first language and then, instead of letting the i18n
plugin build the others, waits for the child.

What both could write is settled by rules that hold in either order
(see :mod:`gendoc.site.plugin`): every language keeps its own ``404.html``
in its folder and the root keeps the first language's; the sitemap of all
languages is written by the build of the last one (the i18n plugin gathers
every language's pages into it as it goes), so the first language skips
its own while a worker builds the rest; the page stores are one per
language and the schema-text table merges on storing. The site is the same
bytes either way (a test compares them); ``GENDOC_SITE_JOBS=1`` builds the
languages one after another in one process.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from gendoc.errors import GendocError

JOBS_VARIABLE = "GENDOC_SITE_JOBS"
log = logging.getLogger("mkdocs.plugins.gendoc")


def may_fork() -> bool:
    """Whether a second process can help: fork exists, a second core, not turned off."""
    if not hasattr(os, "fork") or os.environ.get(JOBS_VARIABLE, "").strip() == "1":
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) > 1


def cpu_share(part: int, parts: int) -> frozenset[int] | None:
    """The processors of this process's build that process ``part`` of ``parts`` (the first
    language's, then the worker's) has for a command it runs: every ``parts``-th one, or
    ``None`` where the system cannot say or cannot pin (every processor, as by default).

    Pagefind indexes on as many threads as the machine has processors. Each process runs
    it once its language is written, beside the other process still rendering or indexing:
    on two cores its threads were switched between both and the other process, and flushed
    each other's address translations. Where this was measured, a language's index took
    0.52 s of processor time on one core against 0.61 s on two (five runs each, alone), and
    eight pairs of full builds 7.28 s against 7.60 s (medians), wall time no longer."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    share = frozenset(cpus[part::parts])
    return share if share and len(share) < len(cpus) else None


@dataclass
class Worker:
    """The child process building ``languages``."""

    pid: int
    languages: list[str]

    def wait(self) -> None:
        """Wait for the child; its failure is this build's (its messages are already out)."""
        _, status = os.waitpid(self.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            names = ", ".join(self.languages)
            raise GendocError(f"the build of {names} failed (exit {code}); its messages are above")

    def stop(self) -> None:
        """The first language failed: the others' build is of no use any more."""
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def _quiet_build_summaries(record: logging.LogRecord) -> bool:
    """Drop the per-language "Documentation built in" lines, as the i18n plugin does."""
    return not record.getMessage().startswith(("Documentation built in", "Building documentation"))


def start(
    config: MkDocsConfig, i18n: Any, others: list[str], finish: Callable[[list[str]], None]
) -> Worker:
    """Fork a child that builds the languages ``others`` (every one but ``i18n``'s current
    one). ``finish`` runs in the child after its builds, given their languages (it stores
    what they rendered and indexes their pages), before it exits."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid:
        return Worker(pid, others)
    code = 1
    try:
        _build(config, i18n, others)
        finish(others)
        code = 0
    except BaseException as exc:  # the child must never return into the parent's build
        log.error(f"gendoc: the build of {', '.join(others)} failed: {exc}")
    finally:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(code)


def _build(config: MkDocsConfig, i18n: Any, languages: list[str]) -> None:
    """What the i18n plugin's ``on_post_build`` does for the other languages."""
    from mkdocs import utils
    from mkdocs.commands.build import build

    utils.clean_directory = lambda directory: None  # the first language's files stay
    logging.getLogger("mkdocs.commands.build").addFilter(_quiet_build_summaries)
    i18n.building = True
    for locale in languages:
        i18n.current_language = locale
        build(config)
