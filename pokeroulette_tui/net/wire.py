"""State messages built once per action: the public part encoded once, each seat's own part
added.

After every action each connection gets a ``state`` message seen from its own seat. Most of
it is the same for everyone: what a spectator sees (:func:`view_for` with no seat, projected
once per action). What a seat sees beyond that is its own player's cards and, on its betting
turn, its options; its events differ only in the private events about itself. So:

- the public view is projected once and its head (everything but the players) encoded once;
- each player's public entry is encoded again only when that player changed;
- each seat's own entry (its hidden cards) comes from :func:`player_view` for that seat, the
  only projection of hidden cards, and is projected again only when that seat's cards
  change; its JSON is the public entry's, cut around the card lists a seat sees of its own,
  with that seat's lists put in (nothing is encoded again when only chips or bets change);
  its options come from :func:`~pokeroulette_tui.engine.betting.bet_options`, as
  :func:`view_for` gives them, on its betting turn only;
- each event is encoded once in each redaction;
- the deck openings: the committed indices of the public cards are looked up once, and each
  seat gets those it has not been opened yet (plus its own cards' and private events').

A seat's message is spliced from those pieces. A test holds each message equal to
``view_for(state, seat).to_dict()`` without the rules, which the ``lobby`` message carries
(docs/PROTOCOL.md §4), and the openings to exactly the cards that seat is shown.
"""

from __future__ import annotations

import json
from itertools import chain
from operator import attrgetter
from typing import Any, Callable, Iterable

from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.state import GameState, Seat
from pokeroulette_tui.engine.view import PlayerView, SeatView, player_view, view_for
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckCommitter

_OWN_CARDS = ("stock", "actives", "hand")
"""The entries of a player that its own seat may see differently from everyone else."""

_HEAD_FIELDS = tuple(k for k in P._VIEW_FIELDS if k not in ("seat", "rules", "options", "players"))
_HEAD = attrgetter(*_HEAD_FIELDS)
_PLAYER_KEY = attrgetter(*P._PLAYER_FIELDS)
"""All of a PlayerView's fields as one tuple: equal exactly when the entries are."""
_OPTIONS = attrgetter(*P.OPTION_FIELDS)
_TEXT = P._TEXT

_dumps: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""As :func:`protocol.encode` writes JSON (compact, UTF-8 kept); one encoder for every call."""

Reveal = Callable[[int | None, Iterable[Card | None]], list[list[Any]]]


def _texts(cards: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else _TEXT[c] for c in cards]


_CARD_JSON: dict[Card | None, str] = {**{c: _dumps(t) for c, t in _TEXT.items()}, None: "null"}


def _cards_json(cards: Iterable[Card | None]) -> str:
    """``_dumps(_texts(cards))``, from each card's JSON made once."""
    return "[" + ",".join([_CARD_JSON[c] for c in cards]) + "]"


def _player_dict(p: PlayerView) -> dict[str, Any]:
    """Exactly ``view.to_dict()["players"][i]`` for this player."""
    d = dict(zip(P._PLAYER_FIELDS, _PLAYER_KEY(p)))
    for key in P._CARD_KEYS:
        d[key] = [None if c is None else _TEXT[c] for c in d[key]]
    d["stock_public"] = list(p.stock_public)
    return d


def _head_dict(v: SeatView) -> dict[str, Any]:
    """``view.to_dict()`` without seat, rules, options and players (in the same order)."""
    d = dict(zip(_HEAD_FIELDS, _HEAD(v)))
    d["suit_draw"] = [_TEXT[c] for c in v.suit_draw]
    d["discards"] = [None if c is None else _TEXT[c] for c in v.discards]
    d["match"] = None if v.match is None else _TEXT[v.match]
    d["last_match"] = None if v.last_match is None else _TEXT[v.last_match]
    d["pots"] = [[a, list(e)] for a, e in v.pots]
    d["pending"] = list(v.pending)
    d["decider"] = list(v.decider) if v.decider is not None else None
    d["result"] = P.result_to_wire(v.result)
    return d


_MARK = "\x00own\x00"
"""A text no entry holds (JSON writes the NUL as ``\\u0000``): where the own card lists go."""
_MARK_JSON = _dumps(_MARK)


class _Public:
    """One player's public entry: the fields it was made from, as a dict and as JSON, and
    that JSON cut around its own card lists (``stock``, ``actives``, ``hand``) so that a
    seat's own entry is spliced from it without encoding anything again."""

    __slots__ = ("key", "entry", "text", "cut")

    def __init__(self, p: PlayerView) -> None:
        self.key = _PLAYER_KEY(p)
        self.entry = _player_dict(p)
        e = self.entry
        cut = _dumps({**e, **dict.fromkeys(_OWN_CARDS, _MARK)}).split(_MARK_JSON)
        if len(cut) == 4:
            self.cut: list[str] | None = cut
            self.text = "".join((cut[0], _cards_json(p.stock), cut[1], _cards_json(p.actives),
                                 cut[2], _cards_json(p.hand), cut[3]))
        else:  # (a name or reason that is the mark itself: encoded whole instead)
            self.cut = None
            self.text = _dumps(e)


class _Own:
    """One seat's own view of its player, the seat objects it was projected from, and its
    entry's JSON (made again only when the public entry or the own cards change)."""

    __slots__ = ("key", "seat_cards", "player", "texts", "jsons", "cards", "public_text",
                 "text", "_indices", "_stamp")

    def __init__(self, s: Seat, player: PlayerView) -> None:
        self.key = _own_key(s)
        # keeps the key's card objects alive, so that their ids stay theirs while cached
        self.seat_cards = (tuple(s.stock), tuple(s.actives), tuple(s.hand))
        self.player = player
        self.texts = {k: _texts(getattr(player, k)) for k in _OWN_CARDS}
        self.jsons = [_cards_json(getattr(player, k)) for k in _OWN_CARDS]
        self.cards: list[Card | None] = [c for k in _OWN_CARDS for c in getattr(player, k)]
        self.public_text: str | None = None
        self.text = ""
        self._indices: list[int] = []
        self._stamp: tuple[Any, int] | None = None

    def indices(self, committer: DeckCommitter) -> list[int]:
        """The committed indices of the cards only this seat sees of its own (looked up again
        when the committer's cards change: a new shoe or a reshuffle)."""
        stamp = (committer.cards, len(committer.cards))
        if self._stamp is None or self._stamp[0] is not stamp[0] or self._stamp[1] != stamp[1]:
            self._indices = committer.indices(self.cards)
            self._stamp = stamp
        return self._indices

    def fits(self, s: Seat) -> bool:
        return _own_key(s) == self.key

    def entry_text(self, public: _Public) -> str | None:
        """The seat's own entry as JSON, or None when it is the public one (nothing hidden
        from the others): the public entry's JSON with this seat's own card lists spliced in
        (exactly what encoding the entry with them would give)."""
        if self.public_text is not public.text:
            e, t = public.entry, self.texts
            if all(t[k] == e[k] for k in _OWN_CARDS):
                self.text = ""
            elif public.cut is None:
                self.text = _dumps({**e, **t})
            else:
                c, j = public.cut, self.jsons
                self.text = "".join((c[0], j[0], c[1], j[1], c[2], j[2], c[3]))
            self.public_text = public.text
        return self.text or None


def _own_key(s: Seat) -> tuple[Any, ...]:
    """What a seat's own entry is projected from: its card objects (by identity: two decks
    hold equal cards), which of them are public, how its actives lie, whether it showed."""
    return (tuple(map(id, s.stock)), tuple(s.stock_public), tuple(map(id, s.actives)),
            s.actives_up, s.moved, tuple(map(id, s.hand)), s.shown)


def _diff(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    """The fields of ``new`` that differ from ``old``'s, as JSON (a changed player in a
    delta: the client updates its entry with them)."""
    if old is None:
        return _dumps(new)
    # (changed as JSON would write it: ``1`` is not ``true``)
    return _dumps({k: v for k, v in new.items()
                   if (o := old.get(k, _MARK)) != v or type(o) is not type(v)})


def _options(state: GameState, seat: int) -> str:
    """The seat's betting options as JSON, exactly as :func:`view_for` gives them."""
    if state.phase == "betting" and state.to_act == seat and not state.game_over:
        return _dumps(dict(zip(P.OPTION_FIELDS, _OPTIONS(betting.bet_options(state, seat)))))
    return "null"


class StateMessages:
    """Builds the ``state`` messages of one table, as encoded lines, per viewing seat.

    Every tracked build (each broadcast) gets the next ``serial``; its full lines carry it.
    A seat asked for a *delta* gets, instead of its whole view, only what changed in it since
    this builder's previous tracked build (docs/PROTOCOL.md §4, "Deltas"): the view's
    changed fields, and the changed players by index; the line carries ``base`` (the serial it
    applies to). The caller sends a delta only to a connection whose last line was that
    previous build's, for the same seat; a build with ``track=False`` (a catch-up line) has
    ``serial`` null and leaves the tracking alone."""

    def __init__(self) -> None:
        self._own: dict[int, _Own] = {}
        self._public: list[_Public] = []
        self.serial = 0
        """The serial of the last tracked build (0: none yet)."""
        self._head: dict[str, Any] | None = None      # the last tracked build's public head
        self._texts: list[str] = []                   # … its players' public JSON
        self._entries: list[dict[str, Any]] = []      # … and entries
        self._seen: dict[int | None, tuple[int, str, str, dict[str, Any] | None]] = {}
        """Per seat, its last tracked line: (serial, its own player entry's JSON, options,
        that entry)."""

    def own_player(self, state: GameState, seat: int) -> _Own:
        """``seat``'s own entry as :func:`view_for` gives it (projected again only when the
        seat's cards change)."""
        s = state.seats[seat]
        own = self._own.get(seat)
        if own is None or not own.fits(s):
            own = self._own[seat] = _Own(s, player_view(state, seat, seat))
        return own

    def _players(self, public: SeatView) -> list[_Public]:
        """Each player's public entry, encoded again only if it changed."""
        out = self._public
        del out[len(public.players):]
        for i, p in enumerate(public.players):
            if i == len(out):
                out.append(_Public(p))
            elif out[i].key != _PLAYER_KEY(p):
                out[i] = _Public(p)
        return out

    def build(self, state: GameState, seats: Iterable[int | None], events: list[Event],
              head: dict[str, Any], tail: dict[str, Any], reveal: Reveal | DeckCommitter,
              extra: dict[int | None, list[list[Any]]] | None = None, *,
              deltas: Iterable[int | None] = (), track: bool = False,
              delta_out: dict[int | None, bytes] | None = None) -> dict[int | None, bytes]:
        """One encoded ``state`` line per seat in ``seats`` (None: a spectator). ``head`` comes
        before the view (type, version), ``tail`` after the reveals. ``reveal`` is the deck
        committer (or ``reveal(seat, cards)``, which gives the openings for the cards that seat
        is shown); ``extra`` openings go first.

        With ``track``, this build gets the next serial. Each seat in ``deltas`` gets a delta
        line in ``delta_out`` against the previous tracked build (its whole line if this
        builder has none for that seat): only for tracked builds."""
        public = view_for(state, None)
        players = self._players(public)
        public_json = view_head = ""  # (made once a whole line needs them)
        head_dict = _head_dict(public)
        redacted = [e.redacted_for(None) for e in events]
        event_json = [_dumps(e.to_dict()) for e in redacted]
        public_events = ",".join(event_json)
        mine = [e.private and e.seat is not None for e in events]
        want_delta = set(deltas) if track else set()
        base = self.serial
        serial = base + 1 if track else None
        head_text = _dumps({**head, "serial": serial})[:-1]
        tail_text = _dumps(tail)[1:]
        texts_now = [p.text for p in players]
        same_count = False
        if want_delta:
            last = self._head
            same_count = last is not None and len(self._texts) == len(players)
            changed_head = _dumps({  # (changed as JSON would write it: 1 is not true)
                k: v for k, v in head_dict.items()
                if last is None or (o := last.get(k, _MARK)) != v or type(o) is not type(v)
            })[1:-1]
            changed_public = [i for i, t in enumerate(texts_now)
                              if not same_count or self._texts[i] is not t and self._texts[i] != t]
            # a changed player's fields that changed (the same for every seat but its own)
            public_diff = {i: _diff(self._entries[i], players[i].entry)
                           for i in changed_public} if same_count else {}
            delta_head = _dumps({**head, "serial": serial, "base": base})[:-1]
        committer = reveal if isinstance(reveal, DeckCommitter) else \
            getattr(reveal, "__self__", None)  # (the committer's own reveal: the same)
        fast = isinstance(committer, DeckCommitter)
        public_cards = public.all_cards()
        if fast:  # the public cards' indices once; each seat's own cards added
            public_idx = committer.indices(public_cards)
            events_idx = committer.indices(c for e in redacted for c in e.cards)
        out: dict[int | None, bytes] = {}
        seen: dict[int | None, tuple[int, str, str, dict[str, Any] | None]] = {}
        full_seats = set(seats)
        for seat in chain(seats, want_delta):
            if seat in seen:
                continue
            texts = public_events
            shown_events = redacted
            own: _Own | None = None
            options = "null"
            own_text = ""
            own_entry: dict[str, Any] | None = None
            if seat is not None:
                own = self.own_player(state, seat)
                options = _options(state, seat)
                text = own.entry_text(players[seat])
                if text is None:
                    own = None  # nothing of its own that the others do not see
                    own_text = texts_now[seat]
                    own_entry = players[seat].entry
                else:
                    own_text = text
                    if track:  # (what its next delta is made against)
                        own_entry = {**players[seat].entry, **own.texts}
                if any(m and e.seat == seat for e, m in zip(events, mine)):
                    shown_events = [e if m and e.seat == seat else r
                                    for e, r, m in zip(events, redacted, mine)]
                    texts = ",".join(_dumps(e.to_dict()) if m and e.seat == seat else t
                                     for e, m, t in zip(events, mine, event_json))
            opened = list(extra.get(seat, ())) if extra else []
            if fast:
                shown = public_idx
                if own is not None or shown_events is not redacted:
                    shown = public_idx + (own.indices(committer) if own is not None else [])
                    shown += events_idx if shown_events is redacted else committer.indices(
                        c for e in shown_events for c in e.cards)
                opened += committer.open(seat, shown)
            else:
                opened += reveal(seat, chain(  # type: ignore[operator]
                    public_cards, own.cards if own is not None else (),
                    *(e.cards for e in shown_events)))
            seat_text = "null" if seat is None else str(int(seat))
            rest = (f'"events":[{texts}],"reveals":{_dumps(opened) if opened else "[]"},'
                    f'{tail_text}\n')
            prev = self._seen.get(seat) if seat in want_delta and delta_out is not None else None
            delta = prev is not None and prev[0] == base and same_count
            if seat in full_seats or not delta:
                if not view_head:
                    view_head = _dumps(head_dict)[:-1]
                    public_json = ",".join(texts_now)
                entries = public_json if own is None else ",".join(
                    own_text if i == seat else t for i, t in enumerate(texts_now))
                full = (f'{head_text},"view":{view_head},"seat":{seat_text},'
                        f'"options":{options},"players":[{entries}]}},{rest}').encode("utf-8")
                if seat in full_seats:
                    out[seat] = full
                if seat in want_delta and delta_out is not None and not delta:
                    delta_out[seat] = full  # nothing to build on: the whole line
            if delta:
                assert prev is not None and delta_out is not None
                parts = [changed_head] if changed_head else []
                if options != prev[2]:
                    parts.append(f'"options":{options}')
                changed = [f"[{i},{public_diff[i]}]" for i in changed_public if i != seat]
                if seat is not None and own_text != prev[1]:
                    changed.append(f"[{seat},{_diff(prev[3], own_entry)}]")
                delta_out[seat] = (f'{delta_head},"view":{{{",".join(parts)}}},'
                                   f'"players":[{",".join(changed)}],{rest}').encode("utf-8")
            seen[seat] = (serial or 0, own_text, options, own_entry)
        if track:
            self.serial = serial  # type: ignore[assignment]
            self._head = head_dict
            self._texts = texts_now
            self._entries = [p.entry for p in players]
            self._seen = seen
        return out
