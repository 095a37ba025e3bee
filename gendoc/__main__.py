"""``python -m gendoc``."""

import sys

from gendoc.cli import main

sys.exit(main())
