"""What the benchmark scripts share: timing commands, and a site served to Chromium.

A package, not a script: ``make bench`` runs every ``benchmarks/*.py`` and none below.
The scripts run as ``python benchmarks/NAME.py``, so this folder's parent is first on
``sys.path`` and they import ``shared.timing`` and ``shared.browser``.
"""
