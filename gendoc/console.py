"""Console: the standard streams and the signals of one gendoc run.

gendoc's output is piped (``gendoc export | jq``, ``gendoc diff | head``),
shown on terminals that cannot encode every label, and run by CI runners
that stop jobs with SIGTERM. Each of these would otherwise end in a
traceback, a half-written file or a stray temporary file, so the command
line sets them up here once.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

from gendoc.errors import UsageError

_STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised like Ctrl-C so that every ``finally`` (temp files, locks) runs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code_of(interrupt: KeyboardInterrupt) -> int:
    """The shell's convention: 128 plus the number of the signal that stopped the run."""
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _handled(signums: tuple[int, ...], handler: Callable[[int, object], None]) -> Iterator[None]:
    """``handler`` for ``signums`` while inside, the previous handlers afterwards.

    Handlers can only be set from the main thread; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, handler) for signum in signums}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


def stop_signals_raise() -> contextlib.AbstractContextManager[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`Terminated` instead of killing at once.

    The previous handlers come back afterwards, so calling ``main()`` inside
    another program (or a test) leaves its signal handling as it was.
    """
    return _handled(_STOP_SIGNALS, _raise_terminated)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP for a few system calls that belong together.

    A signal that arrives meanwhile is delivered (and raises) right after. This
    works on Python's handlers, not on the thread's signal mask: the kernel may
    deliver a signal to any thread (numpy's BLAS starts some), and Python then
    runs its handler in the main thread, whatever the main thread blocked.
    """
    pending: list[int] = []
    try:
        with _handled((signal.SIGINT, *_STOP_SIGNALS), lambda signum, _: pending.append(signum)):
            yield
    finally:
        for signum in pending:
            signal.raise_signal(signum)


def tolerate_unencodable_text() -> None:
    """Escape what the terminal's encoding cannot show instead of crashing on it.

    With ``PYTHONIOENCODING=ascii`` or an old locale, a Chinese label or an
    operator name would raise UnicodeEncodeError in the middle of a report.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


@contextlib.contextmanager
def _stdout_errors_reported() -> Iterator[None]:
    """A full disk or a bad descriptor on stdout is one line; a closed pipe is left to main()."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise UsageError(f"cannot write to standard output: {exc.strerror or exc}") from None


def write_stdout_bytes(data: bytes) -> None:
    """Write bytes as they are (UTF-8 JSON, whatever the terminal's encoding) to stdout."""
    if sys.stdout is None:
        raise UsageError("cannot write to standard output: it is closed")
    with _stdout_errors_reported():
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def flush_stdout() -> None:
    """Flush before exiting, so that a full disk or a closed pipe surfaces here, not at exit."""
    if sys.stdout is not None:
        with _stdout_errors_reported():
            sys.stdout.flush()


def silence_stdout() -> None:
    """After the reader went away, point stdout at /dev/null so the exit flush stays quiet."""
    with contextlib.suppress(OSError, AttributeError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send what imported user code prints to stderr: stdout may be carrying JSON."""
    with contextlib.redirect_stdout(sys.stderr):
        yield
