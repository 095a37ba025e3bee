"""Worker processes that take one task at a time and are stopped at a deadline.

A numeric evaluation runs an operator's reference implementation, which can
take far longer than any budget or never return; checking the clock between
evaluations cannot stop one that is under way. So the tasks run in child
processes (``spawn``: a worker holds nothing but what it is sent), each given
one task at a time, so that the parent knows which task every child is on. At
the deadline, plus :data:`GRACE` for a task to hand back what it has measured,
the children still busy are killed: their tasks are *cut off*; tasks never
handed out are *not started*. A child that dies on its own costs its task
(*failed*, with the exit code), and another takes its place.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

GRACE = 1.0
"""Seconds after the deadline a busy task still has to return (it checks the deadline
between its evaluations and returns what it has): then its process is killed."""

CUT_OFF = "cut-off"
NOT_STARTED = "not-started"
FAILED = "failed"
DONE = "done"


@dataclass(frozen=True)
class Finished:
    """What became of one task: ``state`` is :data:`DONE` (``value`` is its result),
    :data:`FAILED` (``value`` is why), :data:`CUT_OFF` or :data:`NOT_STARTED`."""

    index: int
    state: str
    value: Any = None


def _serve(connection: Connection, function: Callable[..., Any]) -> None:
    """A worker: call ``function`` on each task received, send back its result or error."""
    while True:
        task = connection.recv()
        if task is None:
            return
        try:
            connection.send((DONE, function(*task)))
        except Exception as exc:  # the task fails, not the worker
            connection.send((FAILED, f"{type(exc).__name__}: {exc}"))


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    task: int | None = None


def run_tasks(
    function: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    *,
    workers: int,
    deadline: float | None,
) -> Iterator[Finished]:
    """Call ``function(*task)`` for every task in up to ``workers`` child processes, in order
    of the tasks; yield each as it finishes, then those cut off or not started.

    ``function`` is a module-level function (a child imports it by name); ``deadline`` is
    a ``time.time()`` value, ``None`` for none.
    """
    context = multiprocessing.get_context("spawn")
    pending = deque(range(len(tasks)))
    pool: list[_Worker] = []

    def start() -> _Worker:
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(child, function), daemon=True)
        process.start()
        child.close()
        worker = _Worker(process, parent)
        pool.append(worker)
        return worker

    try:
        while True:
            idle = [w for w in pool if w.task is None]
            in_time = deadline is None or time.time() < deadline
            while in_time and pending and (idle or len(pool) < workers):
                worker = idle.pop() if idle else start()
                worker.task = pending.popleft()
                worker.connection.send(tasks[worker.task])
            busy = [w for w in pool if w.task is not None]
            timeout = None if deadline is None else deadline + GRACE - time.time()
            if not busy or (timeout is not None and timeout <= 0):
                break
            ready = set(wait([w.connection for w in busy], timeout))
            for worker in busy:
                if worker.connection in ready:
                    yield _received(worker, pool)
    finally:
        for worker in pool:
            if worker.task is not None:
                worker.process.kill()
            else:
                with contextlib.suppress(OSError):
                    worker.connection.send(None)
    for worker in pool:
        if worker.task is not None:
            yield Finished(worker.task, CUT_OFF)
        worker.process.join(timeout=5)
        if worker.process.is_alive():  # an idle worker that did not leave when asked
            worker.process.kill()
        worker.connection.close()
    for index in pending:
        yield Finished(index, NOT_STARTED)


def _received(worker: _Worker, pool: list[_Worker]) -> Finished:
    """The result of the worker's task, or its death (then it leaves the pool)."""
    index = worker.task
    assert index is not None
    worker.task = None
    try:
        state, value = worker.connection.recv()
    except (EOFError, OSError):
        worker.process.join(timeout=5)
        pool.remove(worker)
        worker.connection.close()
        return Finished(index, FAILED, f"the process ended (exit code {worker.process.exitcode})")
    return Finished(index, state, value)
