"""Poissonnier: Le Poissonnier, the French fish-market card game, in the terminal."""

__version__ = "0.1.0"
