"""``python -m rulekit``: the same command line as ``rulekit``."""
import sys

from .cli import main

sys.exit(main())
