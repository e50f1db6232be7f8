"""The casino game of the same name: Poker Roulette against the house (docs/RULES.md §6).

One 54-card deck (52 and two jokers). Players bet against the house; bets close; five cards
are dealt face up in a row; bets are settled: roulette bets on the fifth card, poker bets on
all five (jokers wild), the joker bet on the first and fifth, the progressive side bet on all
five with the whole jackpot for a royal flush with jokers first and fifth.

- :mod:`.board` — the board (52 cards in a 4×13 grid and the joker spot) and the bets;
- :mod:`.paytable` — pay tables as configuration (named ones, or a user's file);
- :mod:`.odds` — every bet's exact probability, return and house edge (exact fractions; the
  poker bets by counting rank patterns, not by evaluating each deal);
- :mod:`.game` — a round: bets, the deal, the settlement, bankrolls and the jackpot;
- :mod:`.store` — the bankrolls and the jackpot kept between runs (atomic writes).

Play money only. Like the rest of the engine, no Textual, Rich or asyncio here.
"""
