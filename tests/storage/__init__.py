"""The cache and the writer."""
