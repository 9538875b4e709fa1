"""Playing or watching a table without a UI (headless join)."""
