"""Le Poissonnier: rules (``rules/``, pure), bots (``bots/``), screens (``ui/``), the
adapter to the table server (``match.py``) and its registry entry (``entry.py``).
Rules: ``docs/RULES.md``."""
