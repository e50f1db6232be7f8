"""The five-card draw (Mörkpoker) hand flow: shuffle, cut, deal, draw, showdown."""

from __future__ import annotations

from pokeroulette_tui.engine import betting, scoring
from pokeroulette_tui.engine.actions import Cut, Discard, IllegalAction
from pokeroulette_tui.engine.cards import make_shoe, shuffled
from pokeroulette_tui.engine.events import (BettingStarted, CardsDrawn, DeckCut, DrawStarted, Event,
                                            HandDealt, Reshuffled, Shuffled)
from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.state import GameState


def cutter(state: GameState) -> int:
    """The player on the dealer's right (the previous seat in the hand)."""
    order = state.in_hand_order(state.button + 1)
    return order[-2] if order[-1] == state.button else order[-1]


def deal(state: GameState) -> list[Event]:
    """The dealer shuffles one 52-card deck; the player on the right is asked to cut."""
    state.decks = 1
    state.deck = shuffled(make_shoe(1, jokers=False), state.rng)
    state.shoe_order = list(state.deck)
    state.phase = Phase.CUT
    state.to_act = cutter(state)
    return [Shuffled(_("{dealer} deals and shuffles; {cutter} cuts").format(
        dealer=state.name(state.button), cutter=state.name(state.to_act)), amount=52,
        hand_no=state.hand_no)]


def check_cut(state: GameState, action: Cut) -> None:
    if state.phase != Phase.CUT or action.seat != state.to_act:
        raise IllegalAction(_("it is not your turn to cut"))
    if not 1 <= action.position <= len(state.deck) - 1:
        raise IllegalAction(_("cut between 1 and {n} cards from the top").format(n=len(state.deck) - 1))


def cut(state: GameState, action: Cut) -> list[Event]:
    p = action.position
    state.deck = state.deck[-p:] + state.deck[:-p]
    h = state.hand_no
    ev = [DeckCut(ngettext("{name} cuts {n} card", "{name} cuts {n} cards", p).format(
        name=state.name(action.seat), n=p), seat=action.seat, amount=p, hand_no=h)]
    order = state.live_seats()  # from the dealer's left; a seat that left before the cut gets none
    for __ in range(5):
        for i in order:
            state.seats[i].hand.append(state.deck.pop())
    for i in order:
        s = state.seats[i]
        ev.append(HandDealt(_("{name} is dealt {cards}").format(
                                name=s.name, cards=" ".join(c.symbol for c in s.hand)),
                            seat=i, cards=tuple(s.hand), private=True, hand_no=h,
                            public_text=_("{name} is dealt five cards").format(name=s.name)))
    if state.rules.betting == "each_round" and betting.start_round(state, "pre_draw", state.button + 1):
        state.after_betting = "draw"
        return ev + [BettingStarted(_("Betting before the draw"), hand_no=h)]
    return ev + start_draw(state)


def start_draw(state: GameState) -> list[Event]:
    state.pending = state.live_seats()
    state.phase = Phase.DRAW
    state.to_act = state.pending[0] if state.pending else None
    n = state.rules.max_draw
    return [DrawStarted(ngettext("The draw: exchange up to {n} cards",
                                 "The draw: exchange up to {n} cards", n).format(n=n),
                        hand_no=state.hand_no)]


def check_discard(state: GameState, action: Discard) -> None:
    if state.phase != Phase.DRAW or action.seat != state.to_act:
        raise IllegalAction(_("it is not your turn to draw"))
    idx = action.indices
    if len(set(idx)) != len(idx):
        raise IllegalAction(_("a card can be exchanged only once"))
    if len(idx) > state.rules.max_draw:
        raise IllegalAction(ngettext("you may exchange at most {n} cards",
                                     "you may exchange at most {n} cards",
                                     state.rules.max_draw).format(n=state.rules.max_draw))
    if any(not 0 <= i < 5 for i in idx):
        raise IllegalAction(_("choose cards 1 to 5"))


def discard(state: GameState, action: Discard) -> list[Event]:
    seat = action.seat
    s = state.seats[seat]
    h = state.hand_no
    out = [s.hand[i] for i in sorted(action.indices)]
    s.hand = [c for i, c in enumerate(s.hand) if i not in action.indices]
    ev: list[Event] = []
    k = len(out)
    if len(state.deck) < k:
        older = state.discards
        state.deck = shuffled(older, state.rng) + state.deck
        state.discards, state.discards_public = [], []
        ev.append(Reshuffled(_("The deck ran out: {n} discards shuffled to continue").format(
                                 n=len(older)),
                             amount=len(older), hand_no=h))
    state.discard(out, False)
    new = [state.deck.pop() for __ in range(k)]
    s.hand.extend(new)
    s.drawn = k
    if k == 0:
        public = text = _("{name} stands pat").format(name=s.name)
    else:
        public = _("{name} draws {n}").format(name=s.name, n=k)
        text = _("{name} draws {n}: {cards}").format(name=s.name, n=k,
                                                     cards=" ".join(c.symbol for c in new))
    ev.append(CardsDrawn(text, seat=seat,
                         cards=tuple(new), amount=k, private=True, public_text=public, hand_no=h))
    state.pending.remove(seat)
    return ev + after_pending(state)


def after_pending(state: GameState) -> list[Event]:
    if state.pending:
        state.to_act = state.pending[0]
        return []
    if state.rules.betting == "each_round" and betting.start_round(state, "post_draw", state.button + 1):
        state.after_betting = "showdown"
        return [BettingStarted(_("Betting after the draw"), hand_no=state.hand_no)]
    return scoring.finish_hand(state)


def after_betting(state: GameState) -> list[Event]:
    if state.after_betting == "draw":
        return start_draw(state)
    return scoring.finish_hand(state)
