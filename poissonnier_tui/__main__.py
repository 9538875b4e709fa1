"""Run the ``poissonnier`` command with ``python -m poissonnier_tui``."""

import signal
import sys

if __name__ == "__main__":
    # Ctrl-C while the command loads ends it quietly; main() restores KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)

from poissonnier_tui.cli import main

sys.exit(main())
