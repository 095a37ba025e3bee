"""The message catalogs and the checks that keep translations data."""
