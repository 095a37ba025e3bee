"""The site build's use of its processes: templates compiled in a forked process and handed
back (gendoc.site.compiled), the pieces of a build's end that either of its processes takes
(gendoc.site.build_state), and a process that ends without freeing (gendoc.site.process_end)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from gendoc.site.build_state import SiteBuild
from gendoc.site.compiled import PAGES_BYTECODE, MemoryBytecodeCache, compile_ahead, compile_beside

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

TEMPLATES = {
    "page.html": '{% from "macros.html" import shout %}<p>{{ shout(name) }}</p>',
    "macros.html": "{% macro shout(text) %}{{ text | upper }}!{% endmacro %}",
}


def environment(folder: Path) -> jinja2.Environment:
    """An environment over ``TEMPLATES`` whose compiled code goes to the pages' cache."""
    for name, text in TEMPLATES.items():
        (folder / name).write_text(text, encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True)
    env.bytecode_cache = PAGES_BYTECODE.layered(None)
    return env


def bucket_keys(env: jinja2.Environment) -> set[str]:
    cache = env.bytecode_cache
    assert isinstance(cache, MemoryBytecodeCache)
    return {
        cache.get_bucket(env, name, str(Path(env.loader.searchpath[0]) / name), text).key
        for name, text in TEMPLATES.items()
    }


@pytest.fixture
def clean_pages_cache():
    """The process's cache of compiled pages, emptied for the test and restored after it."""
    kept = dict(PAGES_BYTECODE.store)
    PAGES_BYTECODE.store.clear()
    yield
    PAGES_BYTECODE.store.clear()
    PAGES_BYTECODE.store.update(kept)


def test_what_the_process_compiled_is_kept_here(tmp_path: Path, clean_pages_cache) -> None:
    """Both templates, the one named and the one it imports, come back compiled; rendering
    then compiles nothing (the compiled code is the process's, not this one's)."""
    env = environment(tmp_path)
    compile_beside(lambda: compile_ahead(env, ["page.html"])).take()
    assert bucket_keys(env) <= set(PAGES_BYTECODE.store)
    assert env.get_template("page.html").render(name="conv") == "<p>CONV!</p>"

    compiled = []
    env.compile = lambda *args, **kwargs: compiled.append(args)  # type: ignore[method-assign]
    env.cache = None  # no template object kept: each is loaded from the bytecode cache again
    assert env.get_template("page.html").render(name="pad") == "<p>PAD!</p>"
    assert compiled == []


def test_a_failed_process_leaves_nothing(tmp_path: Path, clean_pages_cache) -> None:
    """A process that fails hands nothing back: the templates are compiled when rendered."""
    env = environment(tmp_path)

    def fails() -> None:
        compile_ahead(env, ["page.html"])
        raise RuntimeError("broken")

    compile_beside(fails).take()
    assert PAGES_BYTECODE.store == {}
    assert env.get_template("page.html").render(name="x") == "<p>X!</p>"


def test_a_task_of_the_end_is_taken_once(tmp_path: Path) -> None:
    """Two processes ask for the same task: exactly one of them takes it."""
    build = SiteBuild("en")
    site = tmp_path / "site"
    build.index_folder(site)
    pid = os.fork()
    if pid == 0:
        os._exit(int(build.claim(site, "data")))
    here = build.claim(site, "data")
    _, status = os.waitpid(pid, 0)
    assert here + os.waitstatus_to_exitcode(status) == 1
    assert not build.claim(site, "data")
    build.remove_index_parts()
    assert not any(tmp_path.glob(".site-pagefind-*"))


FINALIZED = """
import sys
from gendoc.site.process_end import keep_until_exit

class Noted:
    def __del__(self):
        print("freed", flush=True)

made = {"page": Noted()}
if sys.argv[1] == "keep":
    keep_until_exit()
print("end", flush=True)
sys.exit(3)
"""


@pytest.mark.parametrize("keep", [False, True])
def test_a_kept_process_ends_without_freeing(keep: bool) -> None:
    """After ``keep_until_exit`` the interpreter frees nothing it made (no finalizer runs),
    and still exits with the status it was given."""
    done = subprocess.run(
        [sys.executable, "-c", FINALIZED, "keep" if keep else "free"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 3
    assert done.stdout.split() == (["end"] if keep else ["end", "freed"])


THREADS = """
import os
import gendoc.site.plugin
import numpy
print(os.environ["OPENBLAS_NUM_THREADS"], len(os.listdir("/proc/self/task")))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
@pytest.mark.parametrize("given", [None, "2"])
def test_the_plugin_asks_openblas_for_one_thread(given: str | None) -> None:
    """Importing the plugin (which imports numpy) leaves the process one thread: no OpenBLAS
    thread spinning beside it. A value the environment gives is kept."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", THREADS], capture_output=True, text=True, check=True, env=env
    )
    value, threads = done.stdout.split()
    assert value == (given or "1")
    if given is None:
        assert threads == "1"
