"""A schema module that fails on import, to test the error message."""

raise RuntimeError("this module is broken on purpose")
