"""Errors that the command line reports as one line and a non-zero exit."""


class GendocError(Exception):
    """A failure the user can act on; the message is a single line."""

    exit_code = 2


class UsageError(GendocError):
    """Bad options, missing or unreadable inputs, a module that fails to import."""
