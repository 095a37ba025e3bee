"""The audit: lints, numeric evidence, its command and messages."""
