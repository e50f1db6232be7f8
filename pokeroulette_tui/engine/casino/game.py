"""A casino round: players place bets against the house, bets close, five cards are dealt
one by one, every bet is settled (docs/RULES.md §6).

Chips placed on the board leave the bankroll at once (undo and clear give them back while
bets are open); a winning bet returns its stake and its payout (X to 1). The progressive side
bet is one fixed stake; a share of every such stake grows the jackpot, which is kept in
hundredths of a chip so that no share is lost to rounding. A jackpot deal pays each
progressive bet in it an equal part of the whole jackpot (whole chips; the remainder stays),
and the jackpot starts again from the table's seed.

Every function checks what it is asked and raises :class:`CasinoError` with a message for
the player; nothing changes then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pokeroulette_tui.engine.cards import JOKER, Card, card_from_json, card_to_json
from pokeroulette_tui.engine.casino.board import (
    DECK,
    ROULETTE_KINDS,
    Bet,
    BetError,
    Kind,
    covers,
    describe,
    make_bet,
)
from pokeroulette_tui.engine.casino.paytable import (
    CLASS_WORDS,
    LEVELS,
    PayTable,
    class_words,
    hand_class,
    hand_words,
)
from pokeroulette_tui.engine.hands import evaluate
from pokeroulette_tui.engine.i18n import N_, _, number

HISTORY = 50
"""Rounds kept in the history."""
LEVEL = {h: i for i, h in enumerate(LEVELS)}


class CasinoError(ValueError):
    """A bet or step that is not allowed now; the message says why."""


class Stage(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    SETTLED = "settled"


@dataclass
class Settled:
    """One bet's outcome: what came back to the player (stake and winnings; 0 if lost)."""

    bet: Bet
    paid: int
    why: str

    @property
    def won(self) -> bool:
        return self.paid > 0

    def to_dict(self) -> dict[str, Any]:
        return {"bet": self.bet.to_dict(), "paid": self.paid, "why": self.why}


@dataclass
class Player:
    name: str
    bankroll: int
    bets: list[Bet] = field(default_factory=list)
    placed: list[tuple[tuple[Kind, str], int]] = field(default_factory=list)  # for undo
    last_bets: list[Bet] = field(default_factory=list)
    results: list[Settled] = field(default_factory=list)

    @property
    def staked(self) -> int:
        return sum(b.amount for b in self.bets)

    @property
    def net(self) -> int:
        """Won minus staked in the round just settled."""
        return sum(r.paid for r in self.results) - sum(r.bet.amount for r in self.results)


@dataclass
class Round:
    """A finished round, for the history."""

    number: int
    cards: tuple[Card, ...]
    hand: str
    nets: tuple[int, ...]
    jackpot_won: int = 0
    names: tuple[str, ...] = ()  # the players, seat by seat (as ``nets``); () in older files

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "cards": [card_to_json(c) for c in self.cards],
                "hand": self.hand, "nets": list(self.nets), "jackpot_won": self.jackpot_won,
                "names": list(self.names)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        return cls(int(d["number"]), tuple(card_from_json(c) for c in d["cards"]),  # type: ignore
                   str(d["hand"]), tuple(int(n) for n in d["nets"]), int(d.get("jackpot_won", 0)),
                   tuple(str(n) for n in d.get("names", ())))


@dataclass
class Casino:
    """The table: its pay table, players, the round in play and the jackpot."""

    table: PayTable
    players: list[Player]
    jackpot_hundredths: int
    rng: random.Random = field(default_factory=random.Random, repr=False)
    stage: Stage = Stage.BETTING
    round_no: int = 1
    deck: list[Card] = field(default_factory=list, repr=False)
    dealt: list[Card] = field(default_factory=list)
    history: list[Round] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @property
    def jackpot(self) -> int:
        """The jackpot in whole chips."""
        return self.jackpot_hundredths // 100

    @property
    def hand(self) -> str | None:
        """The class of the five cards dealt, once they are all out."""
        return hand_class(self.dealt) if len(self.dealt) == 5 else None


def new_casino(table: PayTable, names: list[str], bankrolls: list[int],
               jackpot: int | None = None, seed: int | None = None) -> Casino:
    if not names:
        raise CasinoError(_("a casino table needs at least one player"))
    players = [Player(n, b) for n, b in zip(names, bankrolls)]
    pot = table.jackpot_seed if jackpot is None else jackpot
    return Casino(table, players, pot * 100, random.Random(seed))


# -- bets ----------------------------------------------------------------------------------

def _open(c: Casino) -> None:
    if c.stage is not Stage.BETTING:
        raise CasinoError(_("bets are closed: wait for the next round"))


def _check(c: Casino, bet: Bet) -> None:
    t = c.table
    if bet.kind is Kind.POKER and bet.target not in t.poker:
        offered = ", ".join(hand_words(h) for h in LEVELS if h in t.poker)
        raise CasinoError(_("this table takes no poker bet on {hand} (it offers: "
                            "{offered})").format(hand=repr(bet.target), offered=offered))


def place(c: Casino, seat: int, kind: str, target: str, amount: int) -> Bet:
    """Put ``amount`` chips on a spot (added to what lies there). Returns the spot's bet."""
    _open(c)
    p = c.players[seat]
    try:
        bet = make_bet(kind, target, amount if kind != Kind.PROGRESSIVE
                       else c.table.progressive_stake)
    except BetError as exc:
        raise CasinoError(str(exc)) from None
    _check(c, bet)
    t = c.table
    before = next((b for b in p.bets if b.spot == bet.spot), None)
    if bet.kind is Kind.PROGRESSIVE and before is not None:
        raise CasinoError(_("the progressive side bet is one stake of {stake} a round, and it "
                            "is already placed").format(stake=number(t.progressive_stake, ",")))
    total = bet.amount + (before.amount if before else 0)
    if bet.kind is not Kind.PROGRESSIVE and total < t.min_bet:
        raise CasinoError(_("the smallest bet on a spot is {min_bet}").format(
            min_bet=number(t.min_bet, ",")))
    if bet.kind is not Kind.PROGRESSIVE and total > t.max_bet:
        room = t.max_bet - (before.amount if before else 0)
        raise CasinoError(
            _("at most {max_bet} on one spot (room for {room} more here)").format(
                max_bet=number(t.max_bet, ","), room=number(room, ",")) if room > 0 else
            _("at most {max_bet} on one spot").format(max_bet=number(t.max_bet, ",")))
    if bet.amount > p.bankroll:
        # (numbers as in the header: 1,000; the words' placeholders stay plain)
        raise CasinoError(_("not enough chips: {left} left, the bet is {amount}").format(
            left=number(p.bankroll, ","), amount=number(bet.amount, ",")))
    p.bankroll -= bet.amount
    merged = Bet(bet.kind, bet.target, total)
    if before is None:
        p.bets.append(merged)
    else:
        p.bets[p.bets.index(before)] = merged
    p.placed.append((bet.spot, bet.amount))
    return merged


def undo(c: Casino, seat: int) -> Bet | None:
    """Take back the last chips placed; returns the spot's bet as it is now (None: gone)."""
    _open(c)
    p = c.players[seat]
    if not p.placed:
        raise CasinoError(_("no bet to take back"))
    spot, amount = p.placed.pop()
    bet = next(b for b in p.bets if b.spot == spot)
    p.bankroll += amount
    i = p.bets.index(bet)
    if bet.amount == amount:
        del p.bets[i]
        return None
    p.bets[i] = Bet(bet.kind, bet.target, bet.amount - amount)
    return p.bets[i]


def clear(c: Casino, seat: int) -> int:
    """Take back every bet; returns the chips given back."""
    _open(c)
    p = c.players[seat]
    back = p.staked
    p.bankroll += back
    p.bets.clear()
    p.placed.clear()
    return back


def rebet(c: Casino, seat: int) -> list[Bet]:
    """Place last round's bets again (all of them, or none if they do not fit now)."""
    _open(c)
    p = c.players[seat]
    if not p.last_bets:
        raise CasinoError(_("no bets from the last round to place again"))
    need = sum(b.amount for b in p.last_bets)
    if need > p.bankroll:
        raise CasinoError(_("last round's bets need {need} chips; {left} left").format(
            need=number(need, ","), left=number(p.bankroll, ",")))
    saved = (list(p.bets), list(p.placed), p.bankroll)
    try:
        for b in p.last_bets:
            place(c, seat, b.kind, b.target, b.amount)
    except CasinoError:
        p.bets, p.placed, p.bankroll = saved
        raise
    return list(p.bets)


# -- the round -----------------------------------------------------------------------------

def close(c: Casino) -> list[str]:
    """No more bets: the deck is shuffled and the jackpot grows by its share of the
    progressive stakes."""
    _open(c)
    if not any(p.bets for p in c.players):
        raise CasinoError(_("place a bet first"))
    c.deck = list(DECK)
    c.rng.shuffle(c.deck)
    c.dealt = []
    c.stage = Stage.DEALING
    side = sum(b.amount for p in c.players for b in p.bets if b.kind is Kind.PROGRESSIVE)
    c.jackpot_hundredths += side * c.table.jackpot_share
    c.log = [f"Round {c.round_no}: no more bets"]
    return list(c.log)


def deal(c: Casino) -> Card:
    """The next card face up; the fifth settles the round."""
    if c.stage is not Stage.DEALING:
        raise CasinoError(_("no card to deal now"))
    card = c.deck.pop()
    c.dealt.append(card)
    c.log.append(f"Card {len(c.dealt)}: {card.symbol if not card.is_joker else 'joker'}")
    if len(c.dealt) == 5:
        settle(c)
    return card


def deal_all(c: Casino) -> list[Card]:
    return [deal(c) for __ in range(5 - len(c.dealt))]


def payout(table: PayTable, cards: list[Card], bet: Bet, hand: str) -> int:
    """What ``bet`` returns on these five cards of class ``hand`` (stake and winnings; 0 if
    lost), leaving the jackpot aside."""
    kind = bet.kind
    if kind in ROULETTE_KINDS:
        fifth = cards[4]
        if fifth.is_joker and kind is not Kind.JOKER:
            return 0
        return bet.amount * (table.roulette[kind] + 1) if fifth in covers(bet) else 0
    if kind is Kind.POKER:
        if LEVEL[hand] >= LEVEL[bet.target]:
            return bet.amount * (table.poker[bet.target] + 1)
        return 0
    if kind is Kind.WILD:
        return bet.amount * (table.wild + 1) if cards[0].is_joker and cards[4].is_joker else 0
    pays = table.progressive.get(hand)
    return 0 if pays is None else bet.amount * (pays + 1)


def wins(c: Casino, bet: Bet, hand: str | None = None) -> tuple[int, str]:
    """:func:`payout` on the cards dealt, and why in words, in the player's language
    (``hand``: their class, if known)."""
    cards = c.dealt
    hand = hand or hand_class(cards)
    paid = payout(c.table, cards, bet, hand)
    return paid, _why(bet, cards, hand, paid, c.table)


def _why(bet: Bet, cards: list[Card], hand: str, paid: int, table: PayTable) -> str:
    if bet.kind in ROULETTE_KINDS:
        if cards[4].is_joker and bet.kind is not Kind.JOKER:
            return _("the fifth card is a joker")
        words = _("the fifth card is on {spot}") if paid else \
            _("the fifth card is not on {spot}")
        return words.format(spot=describe(bet))
    if bet.kind is Kind.POKER:
        if paid:
            return class_words(hand)
        return _("{hand}, not {bet}").format(hand=class_words(hand),
                                              bet=hand_words(bet.target))
    if bet.kind is Kind.WILD:
        return _("jokers first and fifth") if paid else _("not jokers first and fifth")
    if paid:
        return class_words(hand)
    return _side_bet_lost(cards, hand, table)


def hand_name(cards: list[Card] | tuple[Card, ...]) -> str:
    """The five dealt cards named as the poker ranking names them ("pair of tens", "king
    high"), where the pay table's class would say only "pair of sixes or better".

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> hand_name(parse_cards("Th Tc 4d 8s Ks"))
    'pair of tens'
    """
    return evaluate(list(cards)).describe()


def _side_bet_lost(cards: list[Card], hand: str, table: PayTable) -> str:
    """Why the side bet lost: the hand the player had (\"pair of fours\", not its class
    \"pair\") and what the side bet needs at this table."""
    had = hand_name(cards)
    paying = [h for h in LEVELS if h in table.progressive]
    if not paying:
        return _("{hand} pays nothing on the side bet").format(hand=had)
    lowest = paying[0]
    if LEVEL[hand] < LEVEL[lowest] and LEVEL[lowest] >= LEVEL["pair_6"] \
            and paying == [h for h in LEVELS if LEVEL[h] >= LEVEL[lowest]]:
        return _("your hand was {hand} (the side bet needs {needs})").format(
            hand=had, needs=hand_words(lowest))
    return _("your hand was {hand} (the side bet pays only on {hands})").format(
        hand=had, hands=", ".join(class_words(h) for h in paying))


JACKPOT_WHY = N_("THE JACKPOT: a royal flush, jokers first and fifth")


def explain(c: Casino, result: Settled) -> str:
    """Why a settled bet won or lost, in the player's language, from the cards dealt (a
    network table's ``why`` is in its host's language: a player's screen says it again)."""
    cards = c.dealt
    if len(cards) != 5:
        return result.why
    if result.bet.kind is Kind.PROGRESSIVE and result.paid and jackpot_deal(cards):
        return _(JACKPOT_WHY)
    return _why(result.bet, cards, hand_class(cards), result.paid, c.table)


def jackpot_deal(cards: list[Card]) -> bool:
    """A royal flush with the jokers first and fifth."""
    return (len(cards) == 5 and cards[0] == JOKER and cards[4] == JOKER
            and hand_class(cards) == "royal_flush")


def settle(c: Casino) -> None:
    cards = c.dealt
    hand = hand_class(cards)
    jackpot_bets = [(p, b) for p in c.players for b in p.bets if b.kind is Kind.PROGRESSIVE] \
        if jackpot_deal(cards) else []
    share = c.jackpot // len(jackpot_bets) if jackpot_bets else 0
    won_jackpot = 0
    for p in c.players:
        p.results = []
        for b in p.bets:
            if jackpot_bets and b.kind is Kind.PROGRESSIVE:
                paid, why = b.amount + share, _(JACKPOT_WHY)
                won_jackpot += share
            else:
                paid, why = wins(c, b, hand)
            p.results.append(Settled(b, paid, why))
            p.bankroll += paid
        p.last_bets = list(p.bets)
        p.bets = []
        p.placed = []
    if won_jackpot:
        c.jackpot_hundredths = (c.jackpot_hundredths - won_jackpot * 100
                                + c.table.jackpot_seed * 100)
    c.stage = Stage.SETTLED
    c.log.append(f"{CLASS_WORDS[hand].capitalize()}"
                 + (f"; the jackpot of {won_jackpot} is won!" if won_jackpot else ""))
    c.history.append(Round(c.round_no, tuple(cards), hand, tuple(p.net for p in c.players),
                           won_jackpot, tuple(p.name for p in c.players)))
    del c.history[:-HISTORY]


def next_round(c: Casino) -> None:
    if c.stage is not Stage.SETTLED:
        raise CasinoError(_("the round is not over"))
    c.stage = Stage.BETTING
    c.round_no += 1
    c.dealt = []
    c.deck = []
    for p in c.players:
        p.results = []
