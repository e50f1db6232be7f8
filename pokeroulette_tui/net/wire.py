"""State messages built once per action: the public part encoded once, each seat's own part
added.

After every action each connection gets a ``state`` message seen from its own seat. Most of
it is the same for everyone: what a spectator sees (:func:`view_for` with no seat). What a
seat sees beyond that is its own player's cards and, on its betting turn, its options; its
events differ only in the private events about itself. So the public view is projected and
encoded once, each player's entry once, each event once in each redaction, and a seat's
message is spliced from those pieces plus its own entry. Every seat's own entry still comes
from :func:`view_for` (the only projection of hidden cards): it is projected again only when
that seat's cards change, or when it is that seat's turn (for its options). A test holds each
message equal to ``view_for(state, seat).to_dict()`` without the rules, which the ``lobby``
message carries (docs/PROTOCOL.md §4).
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any, Callable, Iterable

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.state import GameState, Seat
from pokeroulette_tui.engine.view import PlayerView, view_for
from pokeroulette_tui.net import protocol as P

_OWN_CARDS = ("stock", "actives", "hand")
"""The entries of a player that its own seat may see differently from everyone else."""


_dumps: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""As :func:`protocol.encode` writes JSON (compact, UTF-8 kept); one encoder for every call."""


def _texts(cards: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else c.text for c in cards]


class _Own:
    """One seat's own view of its player, and the seat objects it was projected from."""

    __slots__ = ("stock", "stock_public", "actives", "actives_up", "moved", "hand", "shown",
                 "player")

    def __init__(self, s: Seat, player: PlayerView) -> None:
        self.stock, self.stock_public = tuple(s.stock), tuple(s.stock_public)
        self.actives, self.actives_up, self.moved = tuple(s.actives), s.actives_up, s.moved
        self.hand, self.shown = tuple(s.hand), s.shown
        self.player = player  # holds the card objects: their ids stay theirs while cached

    def fits(self, s: Seat) -> bool:
        return (_same(self.stock, s.stock) and self.stock_public == tuple(s.stock_public)
                and _same(self.actives, s.actives) and self.actives_up == s.actives_up
                and self.moved == s.moved and _same(self.hand, s.hand) and self.shown == s.shown)


def _same(a: tuple[Any, ...], b: list[Any]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


class StateMessages:
    """Builds the ``state`` messages of one table, as encoded lines, per viewing seat."""

    def __init__(self) -> None:
        self._own: dict[int, _Own] = {}
        self._json: dict[Any, tuple[dict[str, Any], str]] = {}  # entry -> (dict, its JSON)

    def _entry_json(self, key: Any, entry: dict[str, Any]) -> str:
        """``entry`` encoded, or the text from last time if it has not changed (most
        players' entries stay the same from one action to the next)."""
        cached = self._json.get(key)
        if cached is not None and cached[0] == entry:
            return cached[1]
        text = _dumps(entry)
        self._json[key] = (entry, text)
        return text

    def own_player(self, state: GameState, seat: int) -> tuple[PlayerView, Any]:
        """``seat``'s own entry and options, as :func:`view_for` gives them (cached while the
        seat's cards stay the same and it is not that seat's turn)."""
        s = state.seats[seat]
        cached = self._own.get(seat)
        # options exist only on a seat's betting turn (view_for; the wire test holds it)
        asks = seat == state.to_act and state.phase == "betting"
        if not asks and cached is not None and cached.fits(s):
            return cached.player, None
        view = view_for(state, seat)
        self._own[seat] = _Own(s, view.players[seat])
        return view.players[seat], view.options

    def build(self, state: GameState, seats: Iterable[int | None], events: list[Event],
              head: dict[str, Any], tail: dict[str, Any],
              reveal: Callable[[int | None, Iterable[Card | None]], list[list[Any]]],
              extra: dict[int | None, list[list[Any]]] | None = None) -> dict[int | None, bytes]:
        """One encoded ``state`` line per seat in ``seats`` (None: a spectator). ``head`` comes
        before the view (type, version), ``tail`` after the reveals; ``reveal(seat, cards)``
        gives the openings for the cards that seat is shown; ``extra`` openings go first."""
        public = view_for(state, None)
        wire = P.view_to_wire(public)
        del wire["rules"]
        players = wire.pop("players")
        player_json = [self._entry_json(i, p) for i, p in enumerate(players)]
        options_none = wire.pop("options")
        wire.pop("seat")
        view_head = _dumps(wire)[:-1]
        public_cards = public.all_cards()
        redacted = [e.redacted_for(None) for e in events]
        event_json = [_dumps(e.to_dict()) for e in redacted]
        head_text = _dumps(head)[:-1]
        tail_text = _dumps(tail)[1:]
        out: dict[int | None, bytes] = {}
        for seat in seats:
            if seat in out:
                continue
            shown_events = redacted
            texts = event_json
            entries = player_json
            options = options_none
            own_cards: list[Card | None] = []
            if seat is not None:
                player, options = self.own_player(state, seat)
                mine = players[seat]
                own = {k: _texts(getattr(player, k)) for k in _OWN_CARDS}
                if any(own[k] != mine[k] for k in _OWN_CARDS):
                    entries = list(player_json)
                    entries[seat] = self._entry_json(("own", seat), {**mine, **own})
                    own_cards = [c for k in _OWN_CARDS for c in getattr(player, k)]
                if any(e.private and e.seat == seat for e in events):
                    shown_events = [e if e.private and e.seat == seat else r
                                    for e, r in zip(events, redacted)]
                    texts = [_dumps(e.to_dict()) if e.private and e.seat == seat else t
                             for e, t in zip(events, event_json)]
            opened = list(extra.get(seat, ())) if extra else []
            opened += reveal(seat, chain(public_cards, own_cards,
                                         *(e.cards for e in shown_events)))
            options_text = "null" if options is None else _dumps(
                {k: getattr(options, k) for k in P.OPTION_FIELDS})
            line = (f'{head_text},"view":{view_head},"seat":{_dumps(seat)},'
                    f'"options":{options_text},"players":[{",".join(entries)}]}},'
                    f'"events":[{",".join(texts)}],"reveals":{_dumps(opened)},{tail_text}\n')
            out[seat] = line.encode("utf-8")
        return out
