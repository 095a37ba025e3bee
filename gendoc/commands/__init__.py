"""The commands as typed functions, one module per command of the command line."""
