"""The Poker Roulette hand flow: deal, turn, match, clean up, new actives, showdown."""

from __future__ import annotations

from pokeroulette_tui.engine import betting, scoring
from pokeroulette_tui.engine.actions import IllegalAction, MoveStockToActive
from pokeroulette_tui.engine.cards import decks_for, format_cards, make_shoe, shuffled
from pokeroulette_tui.engine.events import (ActivesDealt, BettingStarted, CardsMatched, Event,
                                            MatchCardTurned, MatchingEnded, NewActivesDealt,
                                            Reshuffled, Shuffled, StockDealt, StockKept,
                                            StockMovedToActive)
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
    ev = [Shuffled(f"{state.decks} deck{'s' if state.decks > 1 else ''} of 54 shuffled; "
                   f"{state.name(seats[0])} is dealt first", amount=len(state.deck), hand_no=h)]
    for i in seats:
        card = state.deck.pop()
        s = state.seats[i]
        s.stock.append(card)
        s.stock_public.append(False)
        ev.append(StockDealt(f"{s.name} gets stock card {card.symbol}", seat=i,
                             cards=(card,), private=True, hand_no=h,
                             public_text=f"{s.name} gets a stock card face down"))
    for _ in range(2):
        for i in seats:
            state.seats[i].actives.append(state.deck.pop())
    ev.append(ActivesDealt("Two active cards face down to each player", hand_no=h))
    ev.extend(_deal_match(state))
    return ev


def _deal_match(state: GameState) -> list[Event]:
    state.match = state.deck.pop()
    state.match_claimed_by = None
    state.last_match = state.match
    state.round_no += 1
    state.phase = Phase.DEALT
    state.to_act = None
    return [MatchCardTurned(f"Round {state.round_no}: the match card is {state.match.symbol}",
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
        text = f"{s.name} turns {format_symbols(out.added + out.discarded)}: {out.reason}"
        if out.claims_match and not claimed:
            claimed = True
            s.stock.append(match)
            s.stock_public.append(True)
            state.match = None
            state.match_claimed_by = i
        elif out.claims_match:
            text += f" (the match card already went to {state.name(state.match_claimed_by)})"
        ev.append(CardsMatched(text, seat=i, cards=tuple(out.added + out.discarded),
                               amount=len(out.added), hand_no=h))
    if state.rules.betting == "each_round" and betting.start_round(state, "round", state.button + 1):
        state.after_betting = "matched"
        ev.append(BettingStarted(f"Betting round after round {state.round_no}", hand_no=h))
    else:
        state.betting_round = ""  # (no betting on what this round showed)
        state.phase = Phase.MATCHED
        state.to_act = None
    return ev


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
        ev.append(Reshuffled(f"The deck ran short: {len(pile)} discards shuffled under it "
                             "(once only)", amount=len(pile), hand_no=h))
    if len(state.deck) < need:
        ev.append(MatchingEnded(f"The deck cannot supply another round ({len(state.deck)} "
                                f"left, {need} needed): the matching phase is over",
                                amount=len(state.deck), hand_no=h))
        return ev + end_matching(state)
    for s in state.seats:
        s.added = []
        s.reason = ""
    for k in range(2):
        for i in live:
            if wants[i] > k:
                state.seats[i].actives.append(state.deck.pop())
    ev.append(NewActivesDealt("New actives: " + ", ".join(
        f"{state.name(i)} {wants[i]}" for i in live), hand_no=h))
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
        return [BettingStarted("Final betting round", hand_no=state.hand_no)]
    return scoring.finish_hand(state)


def check_stock_to_active(state: GameState, action: MoveStockToActive) -> None:
    if state.phase != Phase.STOCK_TO_ACTIVE or action.seat != state.to_act:
        raise IllegalAction("it is not your turn to choose a stock card")
    s = state.seats[action.seat]
    if action.index is not None and not 0 <= action.index < len(s.stock):
        raise IllegalAction(f"choose a stock card from 1 to {len(s.stock)}, or keep your stock")


def stock_to_active(state: GameState, action: MoveStockToActive) -> list[Event]:
    seat = action.seat
    s = state.seats[seat]
    h = state.hand_no
    if action.index is None:
        ev = [StockKept(f"{s.name} keeps the stock as it is", seat=seat, hand_no=h)]
    else:
        card = s.stock.pop(action.index)
        public = s.stock_public.pop(action.index)
        s.actives.append(card)
        s.moved = 1 if public else 2
        if public:
            ev = [StockMovedToActive(f"{s.name} moves {card.symbol} from the stock to active",
                                     seat=seat, cards=(card,), hand_no=h)]
        else:
            ev = [StockMovedToActive(f"{s.name} moves the stock card {card.symbol} to active",
                                     seat=seat, cards=(card,), private=True, hand_no=h,
                                     public_text=f"{s.name} moves the face-down stock card to active")]
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
