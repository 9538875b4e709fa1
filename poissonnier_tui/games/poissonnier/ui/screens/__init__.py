"""Le Poissonnier's screens and dialogs."""
