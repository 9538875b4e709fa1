"""Go Fish (docs/GOFISH.md): pure rules in ``rules/``, bots in ``bots/``, and ``match.py``,
its definition for the table server (``GoFishGame``)."""
