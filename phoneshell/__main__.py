"""`python -m phoneshell` is the `phoneshell` command."""

import sys

from phoneshell.cli import main

sys.exit(main())
