"""A schema module interrupted while importing, as if the user pressed Ctrl-C."""

raise KeyboardInterrupt
