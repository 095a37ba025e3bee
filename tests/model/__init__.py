"""The model and what is derived from it alone."""
