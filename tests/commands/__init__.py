"""The commands, from Python and as processes."""
