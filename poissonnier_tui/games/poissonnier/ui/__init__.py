"""Le Poissonnier's screens and widgets: they render views received from the server."""
