"""Jinja2 filters of the gendoc style (filled in below)."""

FILTERS: dict = {}
