"""The evidence sources and the verdict rules."""
