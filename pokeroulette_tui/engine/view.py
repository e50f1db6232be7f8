"""SeatView: what one seat (or a spectator) may see — the only projection of hidden cards."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.cards import Card, card_from_json, card_to_json
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.state import GameState

Hidden = Card | None  # None is a card whose face this viewer may not see


@dataclass(frozen=True)
class PlayerView:
    """One seat as the viewer sees it."""

    seat: int
    name: str
    chips: int
    tokens: int
    status: str
    is_bot: bool
    in_hand: bool
    folded: bool
    all_in: bool
    bet: int
    contributed: int
    stock: tuple[Hidden, ...]
    stock_public: tuple[bool, ...]
    actives: tuple[Hidden, ...]
    actives_up: bool
    added: tuple[Card, ...]
    reason: str
    hand: tuple[Hidden, ...]
    drawn: int
    last_life: bool
    sit_out_hands: int
    shown: bool
    won: int
    out_hand: int = 0
    """The hand the seat went out in (0: not out, or not known)."""
    out_score: int = 0
    """Its chips (tokens under forfeit scoring) at the start of the hand it went out in."""


@dataclass(frozen=True)
class SeatView:
    """The table as seen from ``seat`` (None: a spectator, public cards only)."""

    seat: int | None
    rules: RuleSet
    hand_no: int
    phase: Phase
    button: int
    to_act: int | None
    dealer_step: bool
    suit_order: str | None
    suit_draw: tuple[Card, ...]
    deck_count: int
    match: Card | None
    last_match: Card | None
    match_claimed_by: int | None
    round_no: int
    reshuffled: bool
    discards: tuple[Hidden, ...]
    players: tuple[PlayerView, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    current_bet: int
    min_raise: int
    betting_round: str
    options: betting.BetOptions | None
    pending: tuple[int, ...]
    decider: tuple[int, ...] | None
    result: HandResult | None  # the engine's result of the hand just over
    game_over: bool
    game_over_reason: str

    @property
    def me(self) -> PlayerView | None:
        return None if self.seat is None else self.players[self.seat]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat and not self.game_over

    def all_cards(self) -> list[Card]:
        """Every face this view shows (for leak tests)."""
        out = [c for c in self.suit_draw]
        out += [c for c in (self.match, self.last_match) if c is not None]
        out += [c for c in self.discards if c is not None]
        for p in self.players:
            out += [c for c in p.stock + p.actives + p.hand + p.added if c is not None]
        return out

    # -- JSON ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["rules"] = self.rules.to_dict()
        data["options"] = asdict(self.options) if self.options else None
        data["players"] = [_player_to_dict(p) for p in self.players]
        for key in ("suit_draw", "discards"):
            data[key] = [card_to_json(c) for c in data[key]]
        for key in ("match", "last_match"):
            data[key] = card_to_json(data[key])
        data["pots"] = [[a, list(e)] for a, e in self.pots]
        data["pending"] = list(self.pending)
        data["decider"] = list(self.decider) if self.decider is not None else None
        data["result"] = self.result.to_dict() if self.result is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SeatView":
        d = dict(data)
        d["rules"] = RuleSet.from_dict(d["rules"])
        d["options"] = betting.BetOptions(**d["options"]) if d.get("options") else None
        d["players"] = tuple(_player_from_dict(p) for p in d["players"])
        for key in ("suit_draw", "discards"):
            d[key] = tuple(card_from_json(c) for c in d[key])
        for key in ("match", "last_match"):
            d[key] = card_from_json(d[key])
        d["pots"] = tuple((int(a), tuple(e)) for a, e in d["pots"])
        d["pending"] = tuple(d["pending"])
        d["decider"] = tuple(d["decider"]) if d.get("decider") is not None else None
        d["phase"] = Phase.parse(d["phase"])
        d["result"] = HandResult.from_dict(d["result"]) if d.get("result") is not None else None
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


_PLAYER_CARDS = ("stock", "actives", "hand", "added")


def _player_to_dict(p: PlayerView) -> dict[str, Any]:
    d = {f.name: getattr(p, f.name) for f in fields(p)}
    for key in _PLAYER_CARDS:
        d[key] = [card_to_json(c) for c in d[key]]
    d["stock_public"] = list(p.stock_public)
    return d


def _player_from_dict(d: dict[str, Any]) -> PlayerView:
    d = dict(d)
    for key in _PLAYER_CARDS:
        d[key] = tuple(card_from_json(c) for c in d[key])
    d["stock_public"] = tuple(d["stock_public"])
    return PlayerView(**d)


_new = object.__new__


def _made(cls: Any, values: dict[str, Any]) -> Any:
    """``cls(**values)`` for a frozen dataclass whose ``values`` name every field, without
    the generated ``__init__`` (which sets each field through ``object.__setattr__``): the
    same instance, made in a fraction of the time. Views are made for every seat after every
    action, by the table and by the host; a test holds them equal to ``cls(**values)``."""
    obj = _new(cls)
    obj.__dict__.update(values)
    return obj


def player_view(state: GameState, i: int, viewer: int | None) -> PlayerView:
    """Seat ``i`` as ``viewer`` may see it (None = a spectator)."""
    s = state.seats[i]
    mine = viewer == i
    stock, public = s.stock, s.stock_public
    if len(stock) == len(public) and (mine or all(public)):
        shown_stock = tuple(stock)
    else:
        shown_stock = tuple([c if pub else None for c, pub in zip(stock, public)])
    actives = s.actives
    if s.actives_up:
        shown_actives = tuple(actives)
    elif s.moved and (mine or s.moved == 1):
        shown_actives = (None,) * (len(actives) - 1) + (actives[-1],)
    else:
        shown_actives = (None,) * len(actives)
    hand = tuple(s.hand) if mine or s.shown else (None,) * len(s.hand)
    obj = _new(PlayerView)  # (as _made: the same instance, without the generated __init__)
    obj.__dict__.update({
        "seat": i, "name": s.name, "chips": s.chips, "tokens": s.tokens, "status": s.status,
        "is_bot": s.is_bot, "in_hand": s.in_hand, "folded": s.folded, "all_in": s.all_in,
        "bet": s.bet, "contributed": s.contributed, "stock": shown_stock,
        "stock_public": tuple(public), "actives": shown_actives, "actives_up": s.actives_up,
        "added": tuple(s.added), "reason": s.reason, "hand": hand, "drawn": s.drawn,
        "last_life": s.last_life, "sit_out_hands": s.sit_out_hands, "shown": s.shown,
        "won": s.won, "out_hand": s.out_hand, "out_score": s.out_score})
    return obj


_dealer_to_act: Any = None
"""``engine.game.dealer_to_act``, imported at the first view rather than with this module
(as the import inside :func:`view_for` did before), then kept."""


def view_for(state: GameState, seat: int | None) -> SeatView:
    """What ``seat`` may see now; ``None`` is a spectator.

    >>> from pokeroulette_tui.engine.game import new_game, apply
    >>> from pokeroulette_tui.engine.actions import StartHand
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(betting="none"), ["Ana", "Bo", "Cy"], seed=1)
    >>> _ = apply(g, StartHand())
    >>> v = view_for(g, 0)
    >>> v.players[0].stock[0] is not None, v.players[1].stock[0] is None
    (True, True)
    """
    players = tuple([player_view(state, i, seat) for i in range(len(state.seats))])
    options = None
    if (state.phase == Phase.BETTING and seat is not None and state.to_act == seat
            and not state.game_over):
        options = betting.bet_options(state, seat)
    d = table_fields(state)
    d["seat"], d["players"], d["options"] = seat, players, options
    return _made(SeatView, d)


def table_fields(state: GameState) -> dict[str, Any]:
    """The fields of :func:`view_for`'s view that are the same for every viewer: all but
    ``seat``, ``players`` and ``options`` (a new dict each call). The host builds its
    ``state`` lines from these and its own projections of the players.

    >>> from pokeroulette_tui.engine.game import new_game
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(betting="none"), ["Ana", "Bo", "Cy"], seed=1)
    >>> d, v = table_fields(g), view_for(g, None)
    >>> sorted(set(SeatView.__dataclass_fields__) - set(d))
    ['options', 'players', 'seat']
    >>> all(d[k] == getattr(v, k) for k in d)
    True
    """
    global _dealer_to_act
    if _dealer_to_act is None:
        from pokeroulette_tui.engine.game import dealer_to_act
        _dealer_to_act = dealer_to_act
    in_hand = state.phase not in BETWEEN_HANDS
    if len(state.discards) == len(state.discards_public) and all(state.discards_public):
        discards = tuple(state.discards)
    else:
        discards = tuple(c if pub else None for c, pub in zip(state.discards, state.discards_public))
    return {
        "rules": state.rules, "hand_no": state.hand_no, "phase": state.phase,
        "button": state.button, "to_act": state.to_act, "dealer_step": _dealer_to_act(state),
        "suit_order": state.suit_order, "suit_draw": tuple(state.suit_draw),
        "deck_count": len(state.deck), "match": state.match, "last_match": state.last_match,
        "match_claimed_by": state.match_claimed_by, "round_no": state.round_no,
        "reshuffled": state.reshuffled, "discards": discards,
        "pots": tuple([(a, tuple(e)) for a, e in betting.pots(state)]) if in_hand else (),
        "current_bet": state.current_bet, "min_raise": state.min_raise,
        "betting_round": state.betting_round, "pending": tuple(state.pending),
        "decider": tuple(state.decider) if state.decider else None, "result": state.result,
        "game_over": state.game_over, "game_over_reason": state.game_over_reason}
