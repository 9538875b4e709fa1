"""Many bot games without a server: simulate and tournament."""
