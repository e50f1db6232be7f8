"""State messages built once per action: the public part encoded once, each seat's own part
added.

After every action each connection gets a ``state`` message seen from its own seat. Most of
it is the same for everyone: what a spectator sees (:func:`view_for` with no seat). What a
seat sees beyond that is its own player's cards and, on its betting turn, its options; its
events differ only in the private events about itself. So:

- the public view is never projected whole: its head (everything but the players, from
  :func:`~pokeroulette_tui.engine.view.table_fields` once per build) is kept field by field
  as JSON (``"name":value``), and only the fields whose value changed since the last build
  are encoded again;
- each player's public entry (:func:`player_view` for no seat) is projected again only when
  what that projection reads of its seat changed (the seat's fields by value, its cards by
  identity: a field changed in place shows), and its JSON made again only when the
  projection changed, then only its changed fields encoded (an unchanged field keeps its
  text);
- each seat's own entry (its hidden cards) comes from :func:`player_view` for that seat, the
  only projection of hidden cards, and is projected again only when that seat's cards
  change; its JSON is the public entry's, cut around the card lists a seat sees of its own,
  with that seat's lists put in (nothing is encoded again when only chips or bets change);
  its options come from :func:`~pokeroulette_tui.engine.betting.bet_options`, as
  :func:`view_for` gives them, for the seat to act only;
- each event is encoded once in each redaction;
- a delta's changed fields are those whose JSON text changed (kept texts are the same
  objects, so mostly an identity check);
- the deck openings: the committed indices of the public cards are looked up again only
  when a public card object (two decks hold equal cards), which of a seat's cards are
  public, or the committer's shoe changed (and are kept as the same tuple while equal),
  and each seat gets those it has not been opened yet (plus its own cards' and private
  events'); the committer answers a viewer's same indices again without looking them up;
- the line is joined from pieces encoded to UTF-8 once (the public entries, the head, the
  events and tail), not encoded again whole for each seat.

A seat's message is spliced from those pieces. A test holds each message equal to
``view_for(state, seat).to_dict()`` without the rules, which the ``lobby`` message carries
(docs/PROTOCOL.md §4), and the openings to exactly the cards that seat is shown.
"""

from __future__ import annotations

import json
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Callable, Iterable

from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.state import GameState, Seat
from pokeroulette_tui.engine.view import PlayerView, player_view, table_fields
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckCommitter

_OWN_CARDS = ("stock", "actives", "hand")
"""The entries of a player that its own seat may see differently from everyone else."""

_HEAD_FIELDS = tuple(k for k in P._VIEW_FIELDS if k not in ("seat", "rules", "options", "players"))
_HEAD = attrgetter(*_HEAD_FIELDS)
_HEAD_ITEMS = itemgetter(*_HEAD_FIELDS)
"""The head's values from :func:`table_fields`' dict (as ``_HEAD`` from the view)."""
_PLAYER_KEY = attrgetter(*P._PLAYER_FIELDS)
"""All of a PlayerView's fields as one tuple: equal exactly when the entries are."""
_OPTIONS = attrgetter(*P.OPTION_FIELDS)
_TEXT = P._TEXT

_dumps: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""As :func:`protocol.encode` writes JSON (compact, UTF-8 kept); one encoder for every call."""
_str_json: Callable[[str], str] = json.encoder.encode_basestring  # type: ignore[attr-defined]
"""A text as that encoder writes it (the same function it calls)."""


def _json(v: Any) -> str:
    """``_dumps(v)``, without the encoder's set-up for the plain values most fields hold."""
    t = type(v)
    if t is int:
        return int.__repr__(v)
    if t is str:
        return _str_json(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    return _dumps(v)

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


def _object_json(d: dict[str, Any]) -> str:
    """``_dumps(d)`` for a dict, each value written by :func:`_json`."""
    if not all(type(k) is str for k in d):
        return _dumps(d)
    return "{" + ",".join([_str_json(k) + ":" + _json(v) for k, v in d.items()]) + "}"


_EVENT_TO_DICT = Event.to_dict


def _event_json(e: Event) -> str:
    """``_dumps(e.to_dict())``, written field by field (the same text)."""
    if type(e).to_dict is not _EVENT_TO_DICT:
        return _dumps(e.to_dict())
    try:
        cards = _cards_json(e.cards)
    except (KeyError, TypeError):  # (not a card of the shoe's kinds: as to_dict writes it)
        return _dumps(e.to_dict())
    j = _json
    return (f'{{"kind":{j(e.kind)},"text":{j(e.text)},"seat":{j(e.seat)},'
            f'"cards":{cards},"amount":{j(e.amount)},'
            f'"private":{j(e.private)},"public_text":{j(e.public_text)},'
            f'"hand_no":{j(e.hand_no)}}}')


_EVENT_REDACTED = Event.redacted_for


def _public_event(e: Event) -> tuple[str, tuple[Card | None, ...]]:
    """``e.redacted_for(None)`` as :func:`_event_json` writes it, and its cards: a private
    event's public form written from its own fields (its text the public one, its cards
    hidden), without making that event."""
    if not e.private:
        return _event_json(e), e.cards
    t = type(e)
    if t.redacted_for is not _EVENT_REDACTED or t.to_dict is not _EVENT_TO_DICT:
        r = e.redacted_for(None)
        return _event_json(r), r.cards
    n = len(e.cards)
    j = _json
    return (f'{{"kind":{j(e.kind)},"text":{j(e.public_text)},"seat":{j(e.seat)},'
            f'"cards":[{",".join(["null"] * n)}],"amount":{j(e.amount)},'
            f'"private":{j(e.private)},"public_text":"",'
            f'"hand_no":{j(e.hand_no)}}}', (None,) * n)


_MARK = "\x00own\x00"
"""A text no entry holds (JSON writes the NUL as ``\\u0000``)."""

_PLAYER_NAMES = tuple(_str_json(k) + ":" for k in P._PLAYER_FIELDS)
"""Each player field's JSON name and colon: an entry is ``{`` + its fields' ``name:value``
joined by commas + ``}``, as the encoder writes a dict."""
_PLAYER_CARDS_AT = frozenset(P._PLAYER_FIELDS.index(k) for k in P._CARD_KEYS)
_STOCK_PUBLIC_AT = P._PLAYER_FIELDS.index("stock_public")
_OWN_AT = tuple(P._PLAYER_FIELDS.index(k) for k in _OWN_CARDS)
_PLAYER_AT = range(len(P._PLAYER_FIELDS))
assert list(_OWN_AT) == sorted(_OWN_AT)


def _player_field(j: int, v: Any) -> str:
    """Player field ``j`` with value ``v`` as the entry's JSON writes it (``"name":value``)."""
    if j in _PLAYER_CARDS_AT:
        return _PLAYER_NAMES[j] + _cards_json(v)
    if j == _STOCK_PUBLIC_AT:
        return _PLAYER_NAMES[j] + _dumps(list(v))
    return _PLAYER_NAMES[j] + _json(v)


def _fields_diff(old: list[str], new: list[str]) -> str:
    """The fields of an entry (as ``"name":value`` texts) that differ from ``old``'s, as a
    JSON object (a changed player in a delta: the client updates its entry with them).
    Changed as JSON writes it: ``1`` is not ``true``."""
    return "{" + ",".join([f for f, o in zip(new, old) if f is not o and f != o]) + "}"


class _Public:
    """One player's public entry: the fields it was made from, each field's JSON (only the
    fields changed since the seat's previous entry encoded again), the entry's JSON, and
    that JSON cut around its own card lists (``stock``, ``actives``, ``hand``) so that a
    seat's own entry is spliced from it without encoding anything again."""

    __slots__ = ("key", "player", "fields", "text", "_cut", "_entry", "_data", "seat_key",
                 "seat_cards")

    def __init__(self, p: PlayerView, prev: "_Public | None" = None,
                 key: tuple[Any, ...] | None = None) -> None:
        self.key = key = _PLAYER_KEY(p) if key is None else key
        self.player = p
        self.seat_key: tuple[Any, ...] | None = None  # see StateMessages._players
        self.seat_cards: tuple[tuple[Card, ...], ...] = ()
        self._entry: dict[str, Any] | None = None
        if prev is None:
            f = [_player_field(j, v) for j, v in enumerate(key)]
        else:  # (equal values write the same JSON: as equal keys reuse a whole entry)
            f = list(prev.fields)
            old = prev.key
            for j in [j for j, v, o in zip(_PLAYER_AT, key, old) if v is not o]:
                v, o = key[j], old[j]
                if o != v or type(o) is not type(v):
                    f[j] = _player_field(j, v)
        self.fields = f
        self.text = "{" + ",".join(f) + "}"
        self._cut: list[str] | None | bool = False  # (made when a seat's own entry needs it)
        self._data = b""

    @property
    def data(self) -> bytes:
        """``text`` encoded (once)."""
        if not self._data:
            self._data = self.text.encode("utf-8")
        return self._data

    @property
    def cut(self) -> list[str] | None:
        """The entry's JSON before, between and after its own card lists (None: an entry
        whose texts hold the mark, encoded whole instead, as the cut around it once was)."""
        if self._cut is False:
            p, f = self.player, self.fields
            if _MARK in (p.name, p.status, p.reason):
                self._cut = None
            else:
                names, (a, b, c) = _PLAYER_NAMES, _OWN_AT
                self._cut = ["{" + ",".join(f[:a] + [names[a]]),
                             "," + ",".join(f[a + 1:b] + [names[b]]),
                             "," + ",".join(f[b + 1:c] + [names[c]]),
                             ("," + ",".join(f[c + 1:]) if c + 1 < len(f) else "") + "}"]
        return self._cut  # type: ignore[return-value]

    @property
    def entry(self) -> dict[str, Any]:
        """The entry as a dict (``view.to_dict()["players"][i]``)."""
        if self._entry is None:
            self._entry = _player_dict(self.player)
        return self._entry


class _Own:
    """One seat's own view of its player, the seat objects it was projected from, and its
    entry's JSON (made again only when the public entry or the own cards change)."""

    __slots__ = ("key", "seat_cards", "player", "jsons", "cards", "public_text",
                 "text", "fields", "_indices", "_stamp", "_len", "_data", "_data_text")

    def __init__(self, s: Seat, player: PlayerView, key: tuple[Any, ...] | None = None) -> None:
        self.key = _own_key(s) if key is None else key
        # keeps the key's card objects alive, so that their ids stay theirs while cached
        self.seat_cards = (tuple(s.stock), tuple(s.actives), tuple(s.hand))
        self.player = player
        self.jsons = [_cards_json(player.stock), _cards_json(player.actives),
                      _cards_json(player.hand)]
        self.cards: list[Card | None] = [*player.stock, *player.actives, *player.hand]
        self.public_text: str | None = None
        self.text = ""
        self.fields: list[str] = []
        self._indices: tuple[int, ...] = ()
        self._stamp: list[Card] | None = None
        self._len = 0
        self._data = b""
        self._data_text = ""

    @property
    def data(self) -> bytes:
        """``text`` encoded (again only when it changes)."""
        if self._data_text is not self.text:
            self._data, self._data_text = self.text.encode("utf-8"), self.text
        return self._data

    @property
    def texts(self) -> dict[str, list[str | None]]:
        """The own card lists as the entry's dict holds them."""
        return {k: _texts(getattr(self.player, k)) for k in _OWN_CARDS}

    def indices(self, committer: DeckCommitter) -> tuple[int, ...]:
        """The committed indices of the cards only this seat sees of its own (looked up again
        when the committer's cards change: a new shoe or a reshuffle)."""
        cards = committer.cards
        if self._stamp is not cards or self._len != len(cards):
            idx = tuple(committer.indices(self.cards))
            if idx != self._indices:
                self._indices = idx
            self._stamp, self._len = cards, len(cards)  # (held: its id stays its own)
        return self._indices

    def fits(self, s: Seat) -> bool:
        return _own_key(s) == self.key

    def entry_text(self, public: _Public) -> str | None:
        """The seat's own entry as JSON, or None when it is the public one (nothing hidden
        from the others): the public entry's JSON with this seat's own card lists spliced in
        (exactly what encoding the entry with them would give). Its fields' JSON are in
        ``fields`` (the public entry's when it is the public one)."""
        if self.public_text is not public.text:
            p, k = self.player, public.key
            a, b, c = _OWN_AT
            if p.stock == k[a] and p.actives == k[b] and p.hand == k[c]:
                self.text = ""
                self.fields = public.fields
            else:
                f = list(public.fields)
                for at, j in zip(_OWN_AT, self.jsons):
                    f[at] = _PLAYER_NAMES[at] + j
                self.fields = f
                if public.cut is None:
                    self.text = _dumps({**public.entry, **self.texts})
                else:
                    t, j = public.cut, self.jsons
                    self.text = "".join((t[0], j[0], t[1], j[1], t[2], j[2], t[3]))
            self.public_text = public.text
        return self.text or None


def _own_key(s: Seat) -> tuple[Any, ...]:
    """What a seat's own entry is projected from: its card objects (by identity: two decks
    hold equal cards), which of them are public, how its actives lie, whether it showed."""
    return (tuple(map(id, s.stock)), tuple(s.stock_public), tuple(map(id, s.actives)),
            s.actives_up, s.moved, tuple(map(id, s.hand)), s.shown)


_SEAT_SCALARS = attrgetter(
    "name", "chips", "tokens", "status", "is_bot", "in_hand", "folded", "all_in", "bet",
    "contributed", "reason", "drawn", "last_life", "sit_out_hands", "won", "out_hand",
    "out_score")
"""The seat's fields :func:`player_view` reads besides those in :func:`_own_key` and its
``added`` cards (a test holds the three together to every field the projection reads)."""


def _seat_key(s: Seat) -> tuple[Any, ...]:
    """Everything :func:`player_view` reads of a seat, by value (its card lists by their
    cards' identities): equal keys, the same projection. ``[1]`` is :func:`_own_key`."""
    return (_SEAT_SCALARS(s),
            (tuple(map(id, s.stock)), tuple(s.stock_public), tuple(map(id, s.actives)),
             s.actives_up, s.moved, tuple(map(id, s.hand)), s.shown),  # (_own_key, inlined)
            tuple(map(id, s.added)))


_HEAD_NAMES = tuple(_str_json(k) + ":" for k in _HEAD_FIELDS)


def _head_field(j: int, v: Any) -> str:
    """Head field ``j`` with value ``v`` as ``view.to_dict()`` is encoded (``"name":value``)."""
    name = _HEAD_FIELDS[j]
    if name in ("suit_draw", "discards"):
        text = _cards_json(v)
    elif name in ("match", "last_match"):
        text = _CARD_JSON[v]
    elif name == "pots":
        text = _dumps([[a, list(e)] for a, e in v])
    elif name == "pending":
        text = _dumps(list(v))
    elif name == "decider":
        text = _dumps(list(v)) if v is not None else "null"
    elif name == "result":
        text = _dumps(P.result_to_wire(v))
    else:
        text = _json(v)
    return _HEAD_NAMES[j] + text


_RESULT_AT = _HEAD_FIELDS.index("result")
_HEAD_AT = range(len(_HEAD_FIELDS))


def _head_fields(values: tuple[Any, ...], old: tuple[Any, ...] | None,
                 fields: list[str] | None) -> list[str]:
    """The head's fields as ``"name":value`` texts: those whose value is the same as in
    ``old`` (and of the same type: ``1`` is not ``true``) kept from ``fields``. A result is
    kept only while it is the same object of an immutable kind (a dict could change)."""
    if old is None or fields is None:
        return [_head_field(j, v) for j, v in enumerate(values)]
    f = list(fields)
    for j in [j for j, v, o in zip(_HEAD_AT, values, old) if v is not o or j == _RESULT_AT]:
        v, o = values[j], old[j]
        if j == _RESULT_AT:
            if o is v and (v is None or type(v) is HandResult):
                continue
        elif v == o and type(o) is type(v):
            continue
        f[j] = _head_field(j, v)
    return f


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
        self._values: tuple[Any, ...] | None = None   # the last build's head values
        self._fields: list[str] | None = None          # … and their JSON (``"name":value``)
        self._head: list[str] | None = None    # the last tracked build's head fields' JSON
        self._texts: list[str] = []            # … its players' public JSON
        self._players_fields: list[list[str]] = []  # … and their fields' JSON
        self._public_idx: tuple[Any, ...] | None = None  # see _public_indices
        self._players_version = 0  # see _players
        self._shown: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
        """Per seat, the public cards' and its own cards' indices and the two together."""
        self._seen: dict[int | None, tuple[int, str, str, list[str] | None]] = {}
        """Per seat, its last tracked line: (serial, its own player entry's JSON, options,
        that entry's fields' JSON)."""

    def own_player(self, state: GameState, seat: int, key: tuple[Any, ...] | None = None) -> _Own:
        """``seat``'s own entry as :func:`view_for` gives it (projected again only when the
        seat's cards change; ``key``: its :func:`_own_key` now, if known)."""
        s = state.seats[seat]
        own = self._own.get(seat)
        if key is None:
            key = _own_key(s)
        elif own is not None and own.key is key:
            return own  # (the same key object: the seat's key unchanged since it was checked)
        if own is None or own.key != key:
            own = self._own[seat] = _Own(s, player_view(state, seat, seat), key)
        else:
            own.key = key  # (equal: the next build with the same seat key checks nothing)
        return own

    def _players(self, state: GameState) -> list[_Public]:
        """Each player's public entry (``view_for(state, None).players[i]``): projected again
        only when what :func:`player_view` reads of its seat changed (:func:`_seat_key`), and
        encoded again only if the projection changed (and then only its changed fields).
        Bumps ``_players_version`` whenever a player's card objects, or which of them are
        public, changed (the seat key's card part: its chips alone do not)."""
        out = self._public
        seats = state.seats
        if len(out) > len(seats):
            del out[len(seats):]
            self._players_version += 1
        for i, s in enumerate(seats):
            skey = _seat_key(s)
            if i < len(out):
                old = out[i]
                if old.seat_key == skey:
                    continue
            else:
                old = None
            p = player_view(state, i, None)
            key = _PLAYER_KEY(p)
            if old is None:
                entry = _Public(p, None, key)
                out.append(entry)
            elif old.key != key:
                entry = out[i] = _Public(p, old, key)
            else:  # (the same entry: its cards are the new projection's)
                entry = old
                entry.player = p
            if old is None or old.seat_key[1:] != skey[1:]:  # type: ignore[index]
                # (holds the key's card objects, so that their ids stay theirs while cached)
                entry.seat_cards = (tuple(s.stock), tuple(s.actives), tuple(s.hand),
                                    tuple(s.added))
                self._players_version += 1  # (its cards, or which of them are public)
            elif entry is not old:
                entry.seat_cards = old.seat_cards
            entry.seat_key = skey
        return out

    def _public_indices(self, table: dict[str, Any], players: list[_Public],
                        committer: DeckCommitter) -> tuple[int, ...]:
        """``committer.indices(view_for(state, None).all_cards())``, looked up again only
        when a public card object (of the table's, or a player projected again) or the
        committer's cards (a new shoe, a reshuffle) changed."""
        cards = list(chain(table["suit_draw"], (table["match"], table["last_match"]),
                           table["discards"]))
        key = (committer.cards, len(committer.cards), self._players_version,
               tuple(map(id, cards)))
        last = self._public_idx
        if last is None or last[0] is not key[0] or last[1:4] != key[1:]:
            cards += chain.from_iterable([chain(e.player.stock, e.player.actives,
                                                e.player.hand, e.player.added)
                                          for e in players])
            idx = tuple(committer.indices(cards))
            if last is not None and last[4] == idx:
                idx = last[4]  # (the same object: a viewer's same openings are seen at once)
            # (holds the cards, so that their ids stay theirs while cached)
            self._public_idx = last = (*key, idx, cards)
        return last[4]

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
        table = table_fields(state)
        players = self._players(state)
        values = _HEAD_ITEMS(table)
        fields = self._fields = _head_fields(values, self._values, self._fields)
        self._values = values
        redacted = [_public_event(e) for e in events]  # (their JSON and cards)
        event_json = [r[0] for r in redacted]
        shown_cards = [r[1] for r in redacted]
        public_events = ",".join(event_json)
        private = {e.seat for e in events if e.private and e.seat is not None}
        want_delta = set(deltas) if track else set()
        base = self.serial
        serial = base + 1 if track else None
        if "serial" in head or "base" in head:
            head_text = _dumps({**head, "serial": serial})[:-1]
            delta_head = _dumps({**head, "serial": serial, "base": base})[:-1]
        else:  # (the same text: the head's fields, then serial, then base)
            head_text = _object_json(head)[:-1]
            head_text += f'{"," if len(head_text) > 1 else ""}"serial":{_json(serial)}'
            delta_head = f'{head_text},"base":{base}'
        tail_text = _dumps(tail)[1:]
        texts_now = [p.text for p in players]
        same_count = False
        if want_delta:
            last = self._head
            same_count = last is not None and len(self._texts) == len(players)
            changed_head = ",".join(fields if last is None else [
                f for f, o in zip(fields, last) if f is not o and f != o])
            changed_public = [i for i, t in enumerate(texts_now)
                              if not same_count or self._texts[i] is not t and self._texts[i] != t]
            # a changed player's fields that changed (the same for every seat but its own)
            public_diff = [f"[{i},{_fields_diff(self._players_fields[i], players[i].fields)}]"
                           for i in changed_public] if same_count else []
            all_diff = ",".join(public_diff)
        committer = reveal if isinstance(reveal, DeckCommitter) else \
            getattr(reveal, "__self__", None)  # (the committer's own reveal: the same)
        fast = isinstance(committer, DeckCommitter)
        if fast:  # the public cards' indices once; each seat's own cards added
            public_idx = self._public_indices(table, players, committer)
            events_idx = committer.indices(chain.from_iterable(shown_cards)) \
                if events else []
        else:
            public_cards = [c for c in chain(
                table["suit_draw"], (table["match"], table["last_match"]), table["discards"],
                *[chain(e.player.stock, e.player.actives, e.player.hand, e.player.added)
                  for e in players]) if c is not None]
        out: dict[int | None, bytes] = {}
        seen: dict[int | None, tuple[int, str, str, list[str] | None]] = {}
        full_seats = set(seats)
        common_rest = common_delta = line_head = public_data = events_data = tail_data = b""
        datas: list[bytes] = []
        delta_data: tuple[bytes, bytes, bytes] | tuple[()] = ()

        def delta_prefix() -> tuple[bytes, bytes, bytes]:
            """A delta's start up to its view's fields, those fields, and the changed
            players (for a seat that is not one of them)."""
            return (f'{delta_head},"view":{{'.encode("utf-8"), changed_head.encode("utf-8"),
                    all_diff.encode("utf-8"))

        to_act = state.to_act
        for seat in chain(seats, want_delta):
            if seat in seen:
                continue
            texts = public_events
            shown_events = shown_cards  # (the cards of the events it is shown)
            own: _Own | None = None
            options = "null"
            own_text = ""
            own_fields: list[str] | None = None
            if seat is not None:
                own = self.own_player(state, seat, players[seat].seat_key[1])  # type: ignore[index]
                if seat == to_act:
                    options = _options(state, seat)
                text = own.entry_text(players[seat])
                if text is None:
                    own = None  # nothing of its own that the others do not see
                    own_text = texts_now[seat]
                    own_fields = players[seat].fields
                else:
                    own_text = text
                    own_fields = own.fields
                if seat in private:
                    shown_events = [e.cards if e.private and e.seat == seat else r
                                    for e, r in zip(events, shown_cards)]
                    texts = ",".join(_event_json(e) if e.private and e.seat == seat else t
                                     for e, t in zip(events, event_json))
            opened = list(extra.get(seat, ())) if extra else []
            if fast:  # the cards it is shown every time, then its events'
                shown = public_idx
                if own is not None:  # (the same tuple as last time while neither changed)
                    own_idx = own.indices(committer)
                    last = self._shown.get(seat)
                    if last is not None and last[0] is public_idx and last[1] is own_idx:
                        shown = last[2]
                    else:
                        shown = public_idx + own_idx
                        self._shown[seat] = (public_idx, own_idx, shown)
                opened += committer.open(seat, shown, events_idx if shown_events is shown_cards
                                         else committer.indices(chain.from_iterable(
                                             shown_events)))
            else:
                opened += reveal(seat, chain(  # type: ignore[operator]
                    public_cards, own.cards if own is not None else (),
                    *shown_events))
            # (lines are joined from pieces encoded once: the same bytes as encoding the
            # whole text, as UTF-8 is piece by piece)
            if not opened and texts is public_events:  # the same for every such seat
                if not common_rest:
                    events_data = public_events.encode("utf-8")
                    tail_data = f",{tail_text}\n".encode("utf-8")
                    common_rest = b'"events":[%b],"reveals":[]%b' % (events_data, tail_data)
                rest = common_rest
            else:
                if not tail_data:
                    events_data = public_events.encode("utf-8")
                    tail_data = f",{tail_text}\n".encode("utf-8")
                rest = b'"events":[%b],"reveals":%b%b' % (
                    events_data if texts is public_events else texts.encode("utf-8"),
                    _dumps(opened).encode("utf-8") if opened else b"[]", tail_data)
            prev = self._seen.get(seat) if seat in want_delta and delta_out is not None else None
            delta = prev is not None and prev[0] == base and same_count
            if seat in full_seats or not delta:
                if not line_head:
                    line_head = f'{head_text},"view":{{{",".join(fields)},"seat":'.encode("utf-8")
                    datas = [p.data for p in players]
                    public_data = b",".join(datas)
                if own is None:
                    entries = public_data
                else:
                    entries = b",".join(datas[:seat] + [own.data] + datas[seat + 1:])
                full = b'%b%b,"options":%b,"players":[%b]},%b' % (
                    line_head, b"null" if seat is None else b"%d" % seat,
                    options.encode("utf-8"), entries, rest)
                if seat in full_seats:
                    out[seat] = full
                if seat in want_delta and delta_out is not None and not delta:
                    delta_out[seat] = full  # nothing to build on: the whole line
            if delta and rest is common_rest and options == prev[2] and own_text == prev[1] \
                    and (seat is None or seat not in changed_public):
                # (nothing of its own new: the same delta as every such seat's)
                assert delta_out is not None
                if not common_delta:
                    delta_data = delta_prefix()
                    common_delta = b'%b%b},"players":[%b],%b' % (
                        delta_data[0], delta_data[1], delta_data[2], rest)
                delta_out[seat] = common_delta
            elif delta:
                assert prev is not None and delta_out is not None
                if not delta_data:
                    delta_data = delta_prefix()
                view = delta_data[1]
                if options != prev[2]:
                    view += b'%b"options":%b' % (b"," if view else b"", options.encode("utf-8"))
                if seat is None or seat not in changed_public:
                    changed = delta_data[2]
                else:
                    changed = ",".join([d for i, d in zip(changed_public, public_diff)
                                        if i != seat]).encode("utf-8")
                if seat is not None and own_text != prev[1]:
                    assert prev[3] is not None and own_fields is not None
                    mine = f"[{seat},{_fields_diff(prev[3], own_fields)}]".encode("utf-8")
                    changed = b"%b,%b" % (changed, mine) if changed else mine
                delta_out[seat] = b'%b%b},"players":[%b],%b' % (delta_data[0], view, changed,
                                                                 rest)
            seen[seat] = (serial or 0, own_text, options, own_fields)
        if track:
            self.serial = serial  # type: ignore[assignment]
            self._head = fields
            self._texts = texts_now
            self._players_fields = [p.fields for p in players]
            self._seen = seen
        return out
