"""Background: the result of a forked child, or of the same work done here; never a stray child."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from gendoc.collect.background import Background

PARENT = os.getpid()


def where() -> dict[str, int]:
    return {"pid": os.getpid()}


# In a fresh interpreter: the test process itself may run threads of other tests' libraries.
FORKED = """
import os
from gendoc.collect.background import Background
with Background(lambda: {"pid": os.getpid()}) as pending:
    print("child" if pending.result()["pid"] != os.getpid() else "here")
"""


def test_in_a_single_threaded_process_the_work_runs_in_a_child() -> None:
    done = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "child\n", "")


def test_with_a_thread_running_the_work_runs_here() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with Background(where) as pending:
            assert pending.result() == {"pid": PARENT}
    finally:
        stop.set()
        thread.join()


def fails_in_a_child() -> str:
    if os.getpid() != PARENT:
        raise RuntimeError("only in the child")
    return "done here"


def test_a_failing_child_means_doing_the_work_here() -> None:
    with Background(fails_in_a_child) as pending:
        assert pending.result() == "done here"


STOPPED = """
import os, time
from gendoc.collect.background import Background
start = time.monotonic()
try:
    with Background(lambda: time.sleep(60)):
        raise KeyError("an error before the result was asked for")
except KeyError:
    pass
try:
    os.waitpid(-1, os.WNOHANG)
    print("a child is left")
except ChildProcessError:
    print("no child left" if time.monotonic() - start < 10 else "too slow")
"""


def test_leaving_early_stops_the_child() -> None:
    done = subprocess.run([sys.executable, "-c", STOPPED], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "no child left\n", "")
