"""A game of many hands: new_game, legal_actions, check, apply (the engine's front door)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from pokeroulette_tui.engine import betting, draw, roulette, scoring
from pokeroulette_tui.engine.actions import (BETTING_KINDS, Action, Advance, AllIn, Call, Check,
                                             Cut, Discard, Fold, IllegalAction, Leave,
                                             MoveStockToActive, PlaceBet, RaiseTo, StartHand)
from pokeroulette_tui.engine.cards import make_shoe, shuffled
from pokeroulette_tui.engine.events import AntesPaid, Event, HandStarted, PlayerLeft, SuitOrderDrawn
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.state import LEFT, PLAYING, GameState, Seat

MAX_NAME = 24
DEALER_PHASES = (Phase.WAITING, Phase.HAND_OVER, Phase.DEALT, Phase.MATCHED)
DEAL_PHASES = (Phase.WAITING, Phase.HAND_OVER)
"""The phases in which the dealer starts a hand (in the other dealer phases it goes on)."""
SHOWING_PHASES = (Phase.DEALT,)
"""The dealer phases whose step deals, turns and shuffles no card: it only shows what was
dealt (the active cards against the match card)."""


def new_game(rules: RuleSet, names: Sequence[str], *, seed: int | None = None,
             bots: Sequence[bool] | None = None) -> GameState:
    """A table before its first hand. ``seed`` gives a reproducible shuffle; without it the
    shuffle comes from the operating system's CSPRNG.

    >>> g = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=1)
    >>> g.phase, [s.chips for s in g.seats]
    (<Phase.WAITING: 'waiting'>, [100, 100, 100])
    """
    if len(names) < rules.fewest_players:
        raise RuleError(_("these rules need at least {n} players (got {got})").format(
            n=rules.fewest_players, got=len(names)))
    if rules.variant == "draw" and len(names) > 7:
        raise RuleError(_("five-card draw seats 2 to 7 players (got {got})").format(got=len(names)))
    if len(names) > 52:
        raise RuleError(_("at most 52 seats"))
    clean = [str(n)[:MAX_NAME] for n in names]
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    seats = [Seat(name=n, chips=rules.starting_chips if rules.uses_chips else 0,
                  tokens=rules.tokens if rules.scoring == "forfeit" else 0,
                  is_bot=bool(bots[i]) if bots else False) for i, n in enumerate(clean)]
    state = GameState(rules=rules, seats=seats, rng=rng, seeded=seed is not None,
                      button=len(seats) - 1)
    state.total_chips = state.chips_in_play()
    return state


# -- queries -----------------------------------------------------------------

def dealer_to_act(state: GameState) -> bool:
    """True when the next step is the dealer's (an automatic step), not a seat's."""
    return not state.game_over and state.phase in DEALER_PHASES


def legal_actions(state: GameState, seat: int | None) -> list[Action]:
    """Concrete legal actions for ``seat`` (None = the dealer), amounts at their min and max.

    Leaving is always allowed and is not listed.
    """
    if seat is None:
        if not dealer_to_act(state):
            return []
        return [StartHand()] if state.phase in DEAL_PHASES else [Advance()]
    if state.game_over or seat != state.to_act:
        return []
    if state.phase == Phase.BETTING:
        o = betting.bet_options(state, seat)
        out: list[Action] = []
        if o.check:
            out.append(Check(seat=seat))
        if o.call:
            out.append(Call(seat=seat))
        for lo, hi, cls in ((o.bet_min, o.bet_max, PlaceBet), (o.raise_min, o.raise_max, RaiseTo)):
            if lo:
                out.extend(cls(seat=seat, amount=a) for a in sorted({lo, hi}))
        if o.all_in:
            out.append(AllIn(seat=seat))
        out.append(Fold(seat=seat))
        return out
    if state.phase == Phase.STOCK_TO_ACTIVE:
        return [MoveStockToActive(seat=seat, index=None)] + [
            MoveStockToActive(seat=seat, index=i) for i in range(len(state.seats[seat].stock))]
    if state.phase == Phase.CUT:
        return [Cut(seat=seat, position=p) for p in sorted({1, len(state.deck) // 2, len(state.deck) - 1})]
    if state.phase == Phase.DRAW:
        m = state.rules.max_draw
        return [Discard(seat=seat, indices=tuple(range(k))) for k in range(m + 1)]
    return []


@dataclass(frozen=True)
class Turn:
    """Whose move it is and what kind: for UIs and bots."""

    seat: int | None
    phase: Phase
    options: betting.BetOptions | None = None


def turn(state: GameState) -> Turn:
    if state.phase == Phase.BETTING and state.to_act is not None:
        return Turn(state.to_act, Phase.BETTING, betting.bet_options(state, state.to_act))
    return Turn(state.to_act, state.phase)


# -- the triad: check, apply -------------------------------------------------

def check(state: GameState, action: Action) -> None:
    """Raise IllegalAction (a sentence a player can read) unless ``action`` is legal now."""
    if state.game_over:
        raise IllegalAction(_("the game is over"))
    seat = action.seat
    if seat is not None and not 0 <= seat < state.n:
        raise IllegalAction(_("there is no seat {seat}").format(seat=seat))
    if isinstance(action, Leave):
        if seat is None or state.seats[seat].status == LEFT:
            raise IllegalAction(_("that seat has already left"))
        return
    if isinstance(action, (StartHand, Advance)):
        if seat is not None or not dealer_to_act(state):
            raise IllegalAction(_("only the dealer deals, and only between decisions"))
        want = StartHand if state.phase in DEAL_PHASES else Advance
        if not isinstance(action, want):
            raise IllegalAction(_("the dealer must start the hand") if want is StartHand
                                else _("the dealer must continue"))
        return
    if seat is None:
        raise IllegalAction(_("a player's action needs a seat"))
    if action.kind in BETTING_KINDS:
        betting.check_bet(state, action)
    elif isinstance(action, MoveStockToActive):
        roulette.check_stock_to_active(state, action)
    elif isinstance(action, Cut):
        draw.check_cut(state, action)
    elif isinstance(action, Discard):
        draw.check_discard(state, action)
    else:  # pragma: no cover - every Action subclass is handled above
        raise IllegalAction(_("unknown action {kind}").format(kind=action.kind))


def apply(state: GameState, action: Action) -> list[Event]:
    """Check ``action`` and play it; the state changes only if it is legal.

    >>> g = new_game(RuleSet(betting="none"), ["Ana", "Bo", "Cy"], seed=3)
    >>> [e.kind for e in apply(g, StartHand())][:3]
    ['suit_order', 'hand_started', 'ante']
    """
    check(state, action)
    if isinstance(action, Leave):
        return _leave(state, action.seat)
    if isinstance(action, StartHand):
        return _start_hand(state)
    variant = roulette if state.rules.variant == "roulette" else draw
    if isinstance(action, Advance):
        return roulette.reveal(state) if state.phase == Phase.DEALT else roulette.cleanup(state)
    if action.kind in BETTING_KINDS:
        ev = betting.apply_bet(state, action, state.name)
        return ev + _after_bet(state, variant)
    if isinstance(action, MoveStockToActive):
        return roulette.stock_to_active(state, action)
    if isinstance(action, Cut):
        return draw.cut(state, action)
    return draw.discard(state, action)  # Discard


def _after_bet(state: GameState, variant) -> list[Event]:
    if len(state.live_seats()) < 2:
        return scoring.finish_hand(state)
    if state.to_act is None:
        return variant.after_betting(state)
    return []


# -- hands ---------------------------------------------------------------------

def _draw_suit_order(state: GameState) -> list[Event]:
    deck = shuffled(make_shoe(1, jokers=state.rules.variant == "roulette"), state.rng)
    order: list[str] = []
    turned = []
    while len(order) < 4:
        card = deck.pop()
        turned.append(card)
        if not card.is_joker and card.suit not in order:
            order.append(card.suit)
    state.suit_order = "".join(order)
    state.suit_draw = turned
    return [SuitOrderDrawn(_("Suit ranking drawn: {cards} → {order}").format(
        cards=" ".join(c.symbol for c in turned), order=" > ".join(_sym(s) for s in order)),
        cards=tuple(turned), hand_no=state.hand_no)]


def _sym(suit: str) -> str:
    from pokeroulette_tui.engine.cards import SUIT_SYMBOLS
    return SUIT_SYMBOLS[suit]


def participants(state: GameState) -> list[int]:
    if state.decider:
        return [i for i in state.decider if state.seats[i].status == PLAYING]
    return [i for i, s in enumerate(state.seats) if s.status == PLAYING and s.sit_out_hands == 0]


def _start_hand(state: GameState) -> list[Event]:
    ev: list[Event] = []
    r = state.rules
    if state.suit_order is None and (r.variant == "roulette" or r.suit_tiebreak):
        if r.suit_order == "drawn":
            ev += _draw_suit_order(state)
        else:
            state.suit_order = r.suit_order
    sitting = [i for i, s in enumerate(state.seats) if s.status == PLAYING and s.sit_out_hands > 0]
    seats = participants(state)
    if len(seats) < 2 and not state.decider:
        # sitting out would leave too few players: they play after all
        for i in sitting:
            state.seats[i].sit_out_hands = 0
        seats, sitting = participants(state), []
    if len(seats) < 2:
        state.decider = None
        return ev + scoring.check_game_over(state)
    for i in sitting:
        if not state.decider:
            state.seats[i].sit_out_hands -= 1
    for s in state.seats:
        s.clear_hand()
    for i in seats:
        state.seats[i].in_hand = True
    state.hand_no += 1
    h = state.hand_no
    state.button = state.in_hand_order(state.button + 1)[0]
    state.round_no = 0
    state.reshuffled = False
    state.match = state.last_match = None
    state.match_claimed_by = None
    state.discards, state.discards_public = [], []
    state.result = None
    state.pending = []
    state.current_bet = 0
    state.betting_round = ""
    state.hand_start_chips = {i: state.seats[i].chips for i in seats}
    text = (_("Deciding hand {n}: {name} has the button") if state.decider
            else _("Hand {n}: {name} has the button")).format(n=h, name=state.name(state.button))
    ev.insert(len(ev), HandStarted(text,
                                   seat=state.button, hand_no=h))
    if r.uses_chips:
        paid = 0
        for i in seats:
            s = state.seats[i]
            a = min(r.ante, s.chips)
            s.chips -= a
            s.contributed += a
            paid += a
            if s.chips == 0:
                s.all_in = True
        ev.append(AntesPaid(_("Antes paid: {amount} in the pot").format(amount=paid), amount=paid,
                            hand_no=h))
    ev += (roulette if r.variant == "roulette" else draw).deal(state)
    return ev


def _leave(state: GameState, seat: int) -> list[Event]:
    s = state.seats[seat]
    h = state.hand_no
    was_live = s.live and state.phase not in BETWEEN_HANDS
    s.status = LEFT
    ev = [PlayerLeft(_("{name} leaves the table").format(name=s.name), seat=seat, hand_no=h)]
    if state.decider and seat in state.decider:
        state.decider = [i for i in state.decider if i != seat] or None
        if state.decider and len(state.decider) < 2:
            state.decider = None
    if not was_live:
        if state.phase in DEAL_PHASES:
            ev += scoring.check_game_over(state)
        return ev
    s.folded = True
    state.muck(seat)
    variant = roulette if state.rules.variant == "roulette" else draw
    if len(state.live_seats()) < 2:
        return ev + scoring.finish_hand(state)
    if seat in state.pending:
        was_turn = state.to_act == seat
        state.pending.remove(seat)
        if was_turn:
            ev += variant.after_pending(state)
    elif state.phase == Phase.CUT and state.to_act == seat:
        state.to_act = draw.cutter(state) if draw.cutter(state) != seat else state.button
        # the cutter left: the dealer cuts in the middle
        ev += draw.cut(state, Cut(seat=state.to_act, position=len(state.deck) // 2))
    elif state.phase == Phase.BETTING:
        # the leaver has folded: find who acts next again (nobody, if the seat to act is now
        # the only one who can act and faces no bet)
        start = seat if state.to_act in (seat, None) else (state.to_act - 1) % state.n
        state.to_act = betting._next_to_act(state, start)
        if state.to_act is None:
            ev += variant.after_betting(state)
    return ev


# -- invariants ----------------------------------------------------------------

def _all_cards(state: GameState) -> list:
    cards = state.deck + state.discards
    if state.match is not None:
        cards.append(state.match)
    for s in state.seats:
        cards += s.stock
        cards += s.actives
        cards += s.hand
    return cards


@functools.lru_cache(maxsize=32)
def _sorted_shoe(decks: int, jokers: bool) -> list:
    return sorted(make_shoe(decks, jokers=jokers))


def card_zones(state: GameState) -> Counter:
    """Every card the hand holds, wherever it is, as a multiset."""
    return Counter(_all_cards(state))


def check_invariants(state: GameState) -> list[str]:
    """Breaches of the engine's invariants (empty when all is well)."""
    bad: list[str] = []
    if state.decks:
        jokers = state.rules.variant == "roulette"
        if sorted(_all_cards(state)) != _sorted_shoe(state.decks, jokers):
            have = card_zones(state)
            want = Counter(make_shoe(state.decks, jokers=jokers))
            extra = have - want
            missing = want - have
            bad.append("cards not conserved: " + "; ".join(
                f"{what} {', '.join(c.symbol for c in sorted(cards.elements()))}"
                for what, cards in (("extra", extra), ("missing", missing)) if cards))
    if len(state.discards) != len(state.discards_public):
        bad.append("discard flags out of step")
    for i, s in enumerate(state.seats):
        if len(s.stock) != len(s.stock_public):
            bad.append(f"seat {i} stock flags out of step")
        if s.chips < 0 or s.contributed < 0 or s.tokens < 0:
            bad.append(f"seat {i} has a negative stack")
        if s.folded and (s.stock or s.actives or s.hand):
            bad.append(f"seat {i} folded but holds cards")
        if s.stock_public.count(False) > 1:
            bad.append(f"seat {i} has more than one private stock card")
    if state.rules.uses_chips and state.chips_in_play() != state.total_chips:
        bad.append(f"chips not conserved: {state.chips_in_play()} != {state.total_chips}")
    if state.phase == Phase.BETTING:
        t = state.to_act
        if t is None or not state.seats[t].can_act:
            bad.append(f"betting with a seat to act that cannot act ({t})")
    if state.phase in (Phase.STOCK_TO_ACTIVE, Phase.DRAW, Phase.CUT) and state.to_act is None:
        bad.append(f"{state.phase} with nobody to act")
    if not state.game_over and state.phase not in DEALER_PHASES and state.to_act is None:
        bad.append(f"phase {state.phase} is stuck: no seat and no dealer step")
    return bad
