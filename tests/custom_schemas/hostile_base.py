"""``diff_v1`` plus ``Loud`` with plain strings: the base side of ``hostile_diff``."""

import tests.custom_schemas.diff_v1  # noqa: F401
from tests.custom_schemas.diff_schemas import register
from tests.custom_schemas.loud import loud

register(loud(hostile=False))
