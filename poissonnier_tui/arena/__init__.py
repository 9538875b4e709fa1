"""Many bot games of any registered game, without a server.

* :mod:`.play` — the game loop: one game between agents on a ``net.game.Match``
  (who is asked when, defaults, legality counts, decision timing);
* :mod:`.simulate` — many games summed up (``poissonnier simulate``);
* :mod:`.tournament` — seat-rotated games on shared shuffles, per entrant with
  Wilson intervals (``poissonnier tournament``);
* :mod:`.stats` — derived seeds, intervals, percentiles, score means.

Every entry point takes the game (a :class:`poissonnier_tui.games.GameEntry` or
its registry name).
"""
