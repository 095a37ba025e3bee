"""The package as a whole: its layout and its wheel."""
