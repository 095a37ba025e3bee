"""gendoc suggest."""
