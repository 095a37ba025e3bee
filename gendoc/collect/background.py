"""A computation run in a forked child process while this one goes on.

A build that cannot use its cache spends most of its time importing onnx and
reading the example snippets, two jobs that share nothing. Forking before
the import lets a second core read the snippets meanwhile. The child sends
its JSON-able result back through a pipe and leaves with ``os._exit``, so it
runs no exit handler and flushes nothing of its parent's.

Forking is safe only in a single-threaded process; where that does not hold
(or there is no ``fork``), and whenever the child fails, the computation
simply runs here when its result is asked for: the result never differs.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any


class Background:
    """``compute()`` started now in a child process; :meth:`result` waits for it.

    Use it as a context manager: leaving the block before asking for the
    result (an error, an interrupt) stops the child.
    """

    def __init__(self, compute: Callable[[], Any]) -> None:
        self._compute = compute
        self._child: tuple[int, int] | None = None
        if hasattr(os, "fork") and threading.active_count() == 1:
            self._child = self._fork()

    def _fork(self) -> tuple[int, int] | None:
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return None
        if pid == 0:  # the child: whatever happens, it ends here
            status = 1
            try:
                os.close(read)
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(json.dumps(self._compute()).encode())
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        return pid, read

    def result(self) -> Any:
        """The child's result, or ``compute()`` run here when there was no child or it failed."""
        if self._child is None:
            return self._compute()
        pid, read = self._child
        self._child = None
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status == 0:
            with contextlib.suppress(ValueError):
                return json.loads(data)
        return self._compute()

    def __enter__(self) -> Background:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._child is not None:
            pid, read = self._child
            self._child = None
            os.close(read)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
