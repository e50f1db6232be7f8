"""The Poker Roulette hand flow: deal, turn, match, clean up, new actives, showdown."""

from __future__ import annotations

import re

from pokeroulette_tui.engine import betting, scoring
from pokeroulette_tui.engine.actions import IllegalAction, MoveStockToActive
from pokeroulette_tui.engine.cards import decks_for, make_shoe, shuffled
from pokeroulette_tui.engine.events import (ActivesDealt, BettingStarted, CardsMatched, Event,
                                            MatchCardTurned, MatchingEnded, NewActivesDealt,
                                            Reshuffled, Shuffled, StockDealt, StockKept,
                                            StockMovedToActive)
from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.engine.matching import resolve
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.state import GameState


def deal(state: GameState) -> list[Event]:
    """Shuffle a shoe for the seats in the hand; stock card, two actives, the match card."""
    seats = state.in_hand_order(state.button + 1)
    state.decks = decks_for(len(seats))
    state.deck = shuffled(make_shoe(state.decks, jokers=True), state.rng)
    state.shoe_order = list(state.deck)
    h = state.hand_no
    ev = [Shuffled(ngettext("{n} deck of 54 shuffled; {name} is dealt first",
                            "{n} decks of 54 shuffled; {name} is dealt first", state.decks).format(
                       n=state.decks, name=state.name(seats[0])), amount=len(state.deck), hand_no=h)]
    for i in seats:
        card = state.deck.pop()
        s = state.seats[i]
        s.stock.append(card)
        s.stock_public.append(False)
        ev.append(StockDealt(_("{name} gets stock card {card}").format(name=s.name, card=card.symbol),
                             seat=i, cards=(card,), private=True, hand_no=h,
                             public_text=_("{name} gets a stock card face down").format(name=s.name)))
    for __ in range(2):
        for i in seats:
            state.seats[i].actives.append(state.deck.pop())
    ev.append(ActivesDealt(_("Two active cards face down to each player"), hand_no=h))
    ev.extend(_deal_match(state))
    return ev


def _deal_match(state: GameState) -> list[Event]:
    state.match = state.deck.pop()
    state.match_claimed_by = None
    state.last_match = state.match
    state.round_no += 1
    state.phase = Phase.DEALT
    state.to_act = None
    return [MatchCardTurned(_("Round {n}: the match card is {card}").format(n=state.round_no,
                                                                             card=state.match.symbol),
                            cards=(state.match,), hand_no=state.hand_no)]


def reveal(state: GameState) -> list[Event]:
    """Turn every live player's actives and apply the matching rules (2.3)."""
    h = state.hand_no
    match = state.match
    ev: list[Event] = []
    claimed = False
    for i in state.live_seats():
        s = state.seats[i]
        s.actives_up = True
        out = resolve(s.actives, match, state.rules)
        s.added = list(out.added)
        s.reason = out.reason
        s.stock.extend(out.added)
        s.stock_public.extend([True] * len(out.added))
        s.actives = list(out.discarded)
        cards = format_symbols(out.added + out.discarded)
        late = out.claims_match and claimed
        if out.claims_match and not claimed:
            claimed = True
            s.stock.append(match)
            s.stock_public.append(True)
            state.match = None
            state.match_claimed_by = i
        if late:
            text = _("{name} turns {cards}: {reason} (the match card already went to {other})").format(
                name=s.name, cards=cards, reason=reason_words(out.reason),
                other=state.name(state.match_claimed_by))
        else:
            text = _("{name} turns {cards}: {reason}").format(name=s.name, cards=cards,
                                                             reason=reason_words(out.reason))
        ev.append(CardsMatched(text, seat=i, cards=tuple(out.added + out.discarded),
                               amount=len(out.added), hand_no=h))
    if state.rules.betting == "each_round" and betting.start_round(state, "round", state.button + 1):
        state.after_betting = "matched"
        ev.append(BettingStarted(_("Betting round after round {n}").format(n=state.round_no), hand_no=h))
    else:
        state.betting_round = ""  # (no betting on what this round showed)
        state.phase = Phase.MATCHED
        state.to_act = None
    return ev


_FIXED_REASONS = (
    N_("a lone joker active is discarded"), N_("the match card is a joker: the active is kept"),
    N_("matched by rank"), N_("matched by suit"), N_("no match"), N_("two jokers: both discarded"),
    N_("joker against a joker match card: both discarded"), N_("the match card is a joker: both kept"),
    N_("a joker and a card matching by rank: both kept"),
    N_("a joker and a card matching by suit: both kept"),
    N_("a joker with a card that does not match: both discarded"),
    N_("both actives match by rank: claims the match card"), N_("both actives match by rank: both kept"),
    N_("both actives match by suit: both kept"), N_("the actives match each other by rank: both kept"),
    N_("the actives match each other by suit: both kept"),
)
_TWO_REASONS = {
    ("rank", "rank"): N_("{a} matched by rank, {b} by rank: both kept"),
    ("rank", "suit"): N_("{a} matched by rank, {b} by suit: both kept"),
    ("suit", "rank"): N_("{a} matched by suit, {b} by rank: both kept"),
    ("suit", "suit"): N_("{a} matched by suit, {b} by suit: both kept"),
}
_ONE_REASONS = {"rank": N_("{card} matched by rank"), "suit": N_("{card} matched by suit")}


def reason_words(reason: str) -> str:
    """A matching reason (:attr:`MatchOutcome.reason`, English: it is kept in the state and the
    view) in the player's language; a reason it does not know stays as it is.

    >>> reason_words("no match"), reason_words("7♥ matched by rank, 2♠ by suit: both kept")
    ('no match', '7♥ matched by rank, 2♠ by suit: both kept')
    """
    if reason in _FIXED_REASONS:
        return _(reason)
    found = re.fullmatch(r"(\S+) matched by (rank|suit), (\S+) by (rank|suit): both kept", reason)
    if found:
        return _(_TWO_REASONS[found[2], found[4]]).format(a=found[1], b=found[3])
    found = re.fullmatch(r"(\S+) matched by (rank|suit)", reason)
    if found:
        return _(_ONE_REASONS[found[2]]).format(card=found[1])
    return reason


def format_symbols(cards) -> str:
    return " ".join(c.symbol for c in cards)


def cleanup(state: GameState) -> list[Event]:
    """Discard the round's leftovers, then deal new actives or end the matching phase."""
    h = state.hand_no
    ev: list[Event] = []
    if state.match is not None:
        state.discard([state.match], True)
        state.match = None
    for s in state.seats:
        if s.actives:
            state.discard(s.actives, True)
            s.actives = []
        s.actives_up = False
        s.moved = 0
    live = state.live_seats()
    wants = {i: (2 if state.seats[i].added else 1) for i in live}
    need = sum(wants.values()) + 1
    if len(state.deck) < need and state.rules.reshuffle_discards_once and not state.reshuffled:
        state.reshuffled = True
        pile = shuffled(state.discards, state.rng)
        state.deck = pile + state.deck
        state.discards, state.discards_public = [], []
        ev.append(Reshuffled(_("The deck ran short: {n} discards shuffled under it (once only)").format(
            n=len(pile)), amount=len(pile), hand_no=h))
    if len(state.deck) < need:
        ev.append(MatchingEnded(_("The deck cannot supply another round ({left} left, {need} needed): "
                                  "the matching phase is over").format(left=len(state.deck), need=need),
                                amount=len(state.deck), hand_no=h))
        return ev + end_matching(state)
    for s in state.seats:
        s.added = []
        s.reason = ""
    for k in range(2):
        for i in live:
            if wants[i] > k:
                state.seats[i].actives.append(state.deck.pop())
    ev.append(NewActivesDealt(_("New actives: {list}").format(list=", ".join(
        f"{state.name(i)} {wants[i]}" for i in live)), hand_no=h))
    if state.rules.stock_to_active:
        state.pending = [i for i in live if wants[i] == 1 and state.seats[i].stock]
        if state.pending:
            state.phase = Phase.STOCK_TO_ACTIVE
            state.to_act = state.pending[0]
            return ev
    return ev + _deal_match(state)


def end_matching(state: GameState) -> list[Event]:
    state.phase = Phase.FINAL
    if state.rules.betting == "each_round" and state.betting_round == "round":
        # the last round was bet on and no card has come since: that was the final betting
        # (a second round on the same cards would only repeat it)
        return scoring.finish_hand(state)
    if state.rules.betting != "none" and betting.start_round(state, "final", state.button + 1):
        state.after_betting = "showdown"
        return [BettingStarted(_("Final betting round"), hand_no=state.hand_no)]
    return scoring.finish_hand(state)


def check_stock_to_active(state: GameState, action: MoveStockToActive) -> None:
    if state.phase != Phase.STOCK_TO_ACTIVE or action.seat != state.to_act:
        raise IllegalAction(_("it is not your turn to choose a stock card"))
    s = state.seats[action.seat]
    if action.index is not None and not 0 <= action.index < len(s.stock):
        raise IllegalAction(_("choose a stock card from 1 to {n}, or keep your stock").format(
            n=len(s.stock)))


def stock_to_active(state: GameState, action: MoveStockToActive) -> list[Event]:
    seat = action.seat
    s = state.seats[seat]
    h = state.hand_no
    if action.index is None:
        ev = [StockKept(_("{name} keeps the stock as it is").format(name=s.name), seat=seat, hand_no=h)]
    else:
        card = s.stock.pop(action.index)
        public = s.stock_public.pop(action.index)
        s.actives.append(card)
        s.moved = 1 if public else 2
        if public:
            ev = [StockMovedToActive(_("{name} moves {card} from the stock to active").format(
                                         name=s.name, card=card.symbol),
                                     seat=seat, cards=(card,), hand_no=h)]
        else:
            ev = [StockMovedToActive(_("{name} moves the stock card {card} to active").format(
                                         name=s.name, card=card.symbol),
                                     seat=seat, cards=(card,), private=True, hand_no=h,
                                     public_text=_("{name} moves the face-down stock card to "
                                                   "active").format(name=s.name))]
    state.pending.remove(seat)
    return ev + after_pending(state)


def after_pending(state: GameState) -> list[Event]:
    """Continue once the stock-to-active choices are made (or a chooser left)."""
    if state.pending:
        state.to_act = state.pending[0]
        return []
    return _deal_match(state)


def after_betting(state: GameState) -> list[Event]:
    if state.after_betting == "matched":
        state.phase = Phase.MATCHED
        state.to_act = None
        return []
    return scoring.finish_hand(state)
