"""Modules that register extra operator schemas with onnx when imported.

Tests pass them to gendoc with ``--schemas tests.custom_schemas.<module>``
in a subprocess: registration is global to the process and would leak into
every later test that compares gendoc's output with onnx's own generator.
"""
