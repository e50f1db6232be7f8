"""Poker Roulette, five-card draw and the casino game, in the terminal."""

from pokeroulette_tui.codecache import install as _install_code_cache

__version__ = "0.1.0"

_install_code_cache()  # this package's dataclasses' methods compiled once, not at every start
