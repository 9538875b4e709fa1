"""Run the ``poissonnier`` command with ``python -m poissonnier_tui``."""

import sys

from poissonnier_tui.cli import main

sys.exit(main())
