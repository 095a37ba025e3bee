"""Registers the ``test.audit`` domain, as a user's ``--schemas`` module would.

``audit_cases`` is re-exported so that ``gendoc audit --numeric`` finds the
domain's test cases through this module.
"""

from onnx import defs

from tests.custom_schemas.audit_impl import audit_cases, schemas

__all__ = ["audit_cases"]

for _schema in schemas():
    defs.register_schema(_schema)
