"""A schema module that raises a BaseException that is not an Exception."""


class Escape(BaseException):
    """Not caught by ``except Exception``."""


raise Escape("escaped the usual error handling")
