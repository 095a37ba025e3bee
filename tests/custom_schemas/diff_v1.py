"""The first state of ``com.example``: ``Foo-1`` and ``Foo-2``."""

from tests.custom_schemas.diff_schemas import Category, foo, register

register(
    foo(1, y=Category.Unknown, scale=False),
    foo(2, y=Category.Unknown, scale=False),
)
