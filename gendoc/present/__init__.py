"""Presentation: how every value of the model reads, the styles, Jinja2 and schema text."""
