"""Poker Roulette, five-card draw and the casino game, in the terminal."""

__version__ = "0.1.0"
