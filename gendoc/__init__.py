"""gendoc: the ONNX operator reference, with differentiability tags."""

__version__ = "0.1.0"
