"""``diff_v1_tag`` plus an optional input ``scale`` added to ``Foo-2``."""

from tests.custom_schemas.diff_schemas import Category, foo, register

register(
    foo(1, y=Category.Unknown, scale=False),
    foo(2, y=Category.NonDifferentiable, scale=True),
)
