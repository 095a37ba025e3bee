"""The model: plain dataclasses of an operator reference, and what is derived from them alone."""
