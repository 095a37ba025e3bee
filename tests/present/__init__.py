"""The presentation layer: display, schema text, templates, both styles."""
