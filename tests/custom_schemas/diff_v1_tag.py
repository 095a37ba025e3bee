"""``diff_v1`` with exactly one change: ``Foo-2`` input ``Y`` becomes non-differentiable."""

from tests.custom_schemas.diff_schemas import Category, foo, register

register(
    foo(1, y=Category.Unknown, scale=False),
    foo(2, y=Category.NonDifferentiable, scale=False),
)
