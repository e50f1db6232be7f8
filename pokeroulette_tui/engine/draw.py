"""The five-card draw (Mörkpoker) hand flow: shuffle, cut, deal, draw, showdown."""

from __future__ import annotations

from pokeroulette_tui.engine import betting, scoring
from pokeroulette_tui.engine.actions import Cut, Discard, IllegalAction
from pokeroulette_tui.engine.cards import make_shoe, shuffled
from pokeroulette_tui.engine.events import (BettingStarted, CardsDrawn, DeckCut, DrawStarted, Event,
                                            HandDealt, Reshuffled, Shuffled)
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
    return [Shuffled(f"{state.name(state.button)} deals and shuffles; "
                     f"{state.name(state.to_act)} cuts", amount=52, hand_no=state.hand_no)]


def check_cut(state: GameState, action: Cut) -> None:
    if state.phase != Phase.CUT or action.seat != state.to_act:
        raise IllegalAction("it is not your turn to cut")
    if not 1 <= action.position <= len(state.deck) - 1:
        raise IllegalAction(f"cut between 1 and {len(state.deck) - 1} cards from the top")


def cut(state: GameState, action: Cut) -> list[Event]:
    p = action.position
    state.deck = state.deck[-p:] + state.deck[:-p]
    h = state.hand_no
    ev = [DeckCut(f"{state.name(action.seat)} cuts {p} cards", seat=action.seat, amount=p,
                  hand_no=h)]
    order = state.live_seats()  # from the dealer's left; a seat that left before the cut gets none
    for _ in range(5):
        for i in order:
            state.seats[i].hand.append(state.deck.pop())
    for i in order:
        s = state.seats[i]
        ev.append(HandDealt(f"{s.name} is dealt {' '.join(c.symbol for c in s.hand)}",
                            seat=i, cards=tuple(s.hand), private=True, hand_no=h,
                            public_text=f"{s.name} is dealt five cards"))
    if state.rules.betting == "each_round" and betting.start_round(state, "pre_draw", state.button + 1):
        state.after_betting = "draw"
        return ev + [BettingStarted("Betting before the draw", hand_no=h)]
    return ev + start_draw(state)


def start_draw(state: GameState) -> list[Event]:
    state.pending = state.live_seats()
    state.phase = Phase.DRAW
    state.to_act = state.pending[0] if state.pending else None
    return [DrawStarted(f"The draw: exchange up to {state.rules.max_draw} cards",
                        hand_no=state.hand_no)]


def check_discard(state: GameState, action: Discard) -> None:
    if state.phase != Phase.DRAW or action.seat != state.to_act:
        raise IllegalAction("it is not your turn to draw")
    idx = action.indices
    if len(set(idx)) != len(idx):
        raise IllegalAction("a card can be exchanged only once")
    if len(idx) > state.rules.max_draw:
        raise IllegalAction(f"you may exchange at most {state.rules.max_draw} cards")
    if any(not 0 <= i < 5 for i in idx):
        raise IllegalAction("choose cards 1 to 5")


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
        ev.append(Reshuffled(f"The deck ran out: {len(older)} discards shuffled to continue",
                             amount=len(older), hand_no=h))
    state.discard(out, False)
    new = [state.deck.pop() for _ in range(k)]
    s.hand.extend(new)
    s.drawn = k
    public = f"{s.name} stands pat" if k == 0 else f"{s.name} draws {k}"
    ev.append(CardsDrawn(public + (f": {' '.join(c.symbol for c in new)}" if k else ""), seat=seat,
                         cards=tuple(new), amount=k, private=True, public_text=public, hand_no=h))
    state.pending.remove(seat)
    return ev + after_pending(state)


def after_pending(state: GameState) -> list[Event]:
    if state.pending:
        state.to_act = state.pending[0]
        return []
    if state.rules.betting == "each_round" and betting.start_round(state, "post_draw", state.button + 1):
        state.after_betting = "showdown"
        return [BettingStarted("Betting after the draw", hand_no=state.hand_no)]
    return scoring.finish_hand(state)


def after_betting(state: GameState) -> list[Event]:
    if state.after_betting == "draw":
        return start_draw(state)
    return scoring.finish_hand(state)
