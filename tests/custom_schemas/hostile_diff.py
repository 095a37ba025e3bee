"""``diff_v1`` plus ``Loud`` with hostile strings (see ``loud``)."""

import tests.custom_schemas.diff_v1  # noqa: F401
from tests.custom_schemas.diff_schemas import register
from tests.custom_schemas.loud import loud

register(loud(hostile=True))
