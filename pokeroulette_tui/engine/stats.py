"""Statistics across games for one player: hand and game records, and their totals.

Only what the player saw goes in: the public result of each hand (the hands shown, the
pots, who lost a token) and the player's own cards, taken from the player's own
:class:`~pokeroulette_tui.engine.view.SeatView`. Another seat's unshown cards are never
in a record, because no record is built from anything but that seat's view and the
result every seat is shown.

>>> from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
>>> from pokeroulette_tui.engine.rules import RuleSet
>>> from pokeroulette_tui.engine.view import view_for
>>> g = new_game(RuleSet(betting="none"), ["Ana", "Bo", "Cy"], seed=3)
>>> watch = HandWatcher()
>>> while g.result is None:
...     events = apply(g, legal_actions(g, None)[0])
...     watch.see(view_for(g, 0), started=any(e.kind == "hand_started" for e in events))
>>> book = PlayerStats("Ana")
>>> rec = book.add_hand(hand_record("Ana", view_for(g, 0), g.result, watch, at="2025-01-01T20:00"))
>>> rec.showdown, rec.won, rec.partial, book.add_hand(rec) is None   # counted once
(True, False, False, True)
>>> book.tally().hands, book.tally().showdowns
(1, 1)
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import deque
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterable

from pokeroulette_tui.engine.hands import Category
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import SeatView

VERSION = 1
SERIES = 240
"""Points of the chips-over-time series kept (one a hand, the newest)."""
RECENT_KEYS = 4096
"""Hands remembered by their key to count a hand seen twice (a resumed table) once."""


def preset_of(rules: RuleSet, saved: Iterable[tuple[str, RuleSet]] = ()) -> str:
    """The preset a rule set is: a built-in or saved one it equals, else ``"custom"``.

    >>> preset_of(PRESETS["swedish"]), preset_of(RuleSet(ante=5))
    ('swedish', 'custom')
    """
    for name, preset in (*PRESETS.items(), *saved):
        if preset == rules:
            return name
    return "custom"


def rules_digest(rules: RuleSet) -> str:
    """A short fingerprint of the rules (a game keeps its rules from start to end)."""
    text = json.dumps(rules.to_dict(), sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def hand_score(category: str, cards: Iterable[str], jokers: Iterable[str] = ()) -> tuple[int, ...]:
    """A comparable value of a shown hand: its category, then its cards' ranks (a joker
    counts as what it stands for).

    >>> hand_score("PAIR", ["As", "Ah", "Kd"]) > hand_score("PAIR", ["Ks", "Kh", "Ad"])
    True
    """
    from pokeroulette_tui.engine.cards import parse_card

    stands = [parse_card(j) for j in jokers]
    ranks = []
    for text in cards:
        card = parse_card(text)
        if card.is_joker and stands:
            card = stands.pop(0)
        ranks.append(card.rank)
    try:
        cat = int(Category[category])
    except KeyError:
        cat = -1
    return (cat, *ranks)


# -- watching one hand ------------------------------------------------------------------------

class HandWatcher:
    """The cards one seat has seen of its own during the hand in play (in the order they
    came), and the match cards turned (public). Fed with that seat's views only.

    ``dealt``: the seat was dealt into the hand (a seat that folded holds no cards any
    more, but it played the hand). ``whole``: the hand was watched from its start; when not
    (a game resumed, or joined, part way through a hand) ``cards`` and ``held`` are only
    what was seen since: the seat's cards before are not known here."""

    def __init__(self) -> None:
        self.hand_no = -1
        self.cards: list[str] = []
        self.match: list[str] = []
        self.held: list[str] = []  # the seat's stock or hand as last seen
        self.dealt = False
        self.whole = False

    def see(self, view: SeatView, *, started: bool = False) -> None:
        """Look at ``view`` (the seat's own view; a spectator's view adds nothing).
        ``started``: the update it came with started a hand (so a watcher seeing its first
        hand sees it whole; one that watched the hand before sees each next one whole)."""
        if view.hand_no != self.hand_no:
            self.whole = started or self.hand_no != -1
            self.hand_no, self.cards, self.match, self.held = view.hand_no, [], [], []
            self.dealt = False
        me = view.me
        if me is not None:
            self.dealt |= me.in_hand
            held = [c.text for c in (*me.stock, *me.hand) if c is not None]
            if held:  # (a folded roulette stock goes to the discards: keep what was held)
                self.held = held
            for card in (*me.stock, *me.actives, *me.hand, *me.added):
                if card is not None and card.text not in self.cards:
                    self.cards.append(card.text)
        for card in (view.match, view.last_match):
            if card is not None and card.text not in self.match:
                self.match.append(card.text)


# -- records ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandRecord:
    """One hand as one player saw it; the totals and the histories are made of these."""

    player: str
    at: str
    variant: str
    preset: str
    sig: str                  # seat / seats / rules: hands of one game share it
    seat: int
    names: tuple[str, ...]
    hand_no: int
    cards: tuple[str, ...]    # the player's own cards seen during the hand
    held: tuple[str, ...]     # the player's stock or hand as last seen in the hand
    match: tuple[str, ...]    # the match cards turned (public)
    chips: int | None         # after the hand (None: a game without chips)
    tokens: int
    result: HandResult
    game: str = ""
    first: bool = False       # the first hand recorded of its game
    key: str = ""
    partial: bool = False     # watched from part way (resumed): cards before are not known

    @property
    def showdown(self) -> bool:
        return not self.result.by_fold and self.result.hand(self.seat) is not None

    @property
    def won(self) -> bool:
        return self.seat in self.result.winners

    @property
    def won_showdown(self) -> bool:
        return self.showdown and self.won

    @property
    def tokens_lost(self) -> int:
        return self.result.token_losers.count(self.seat)

    @property
    def group(self) -> str:
        return f"{self.variant} · {self.preset}"

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        for key in ("names", "cards", "held", "match"):
            d[key] = list(d[key])
        d["result"] = self.result.to_dict()
        if not self.partial:  # (a whole hand's line is as it always was)
            del d["partial"]
        return {"kind": "hand", "v": VERSION, **d}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "HandRecord":
        """Raises KeyError/TypeError/ValueError on a malformed record."""
        chips = d["chips"]
        return cls(player=str(d["player"]), at=str(d["at"]), variant=str(d["variant"]),
                   preset=str(d["preset"]), sig=str(d["sig"]), seat=int(d["seat"]),
                   names=tuple(str(n) for n in d["names"]), hand_no=int(d["hand_no"]),
                   cards=tuple(str(c) for c in d["cards"]),
                   held=tuple(str(c) for c in d.get("held", ())), match=tuple(str(c) for c in d["match"]),
                   chips=None if chips is None else int(chips), tokens=int(d["tokens"]),
                   result=HandResult.from_dict(d["result"]), game=str(d["game"]),
                   first=bool(d["first"]), key=str(d["key"]),
                   partial=bool(d.get("partial", False)))


@dataclass(frozen=True)
class GameRecord:
    """The end of one game for one player: the place, and whether it was a win."""

    player: str
    at: str
    game: str
    variant: str
    preset: str
    hands: int
    place: int
    won: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "game", "v": VERSION, **asdict(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameRecord":
        return cls(player=str(d["player"]), at=str(d["at"]), game=str(d["game"]),
                   variant=str(d["variant"]), preset=str(d["preset"]), hands=int(d["hands"]),
                   place=int(d["place"]), won=bool(d["won"]), reason=str(d["reason"]))


def seat_sig(view: SeatView) -> str:
    """What the hands of one game share as seen from one seat: the seat, the number of
    seats and the rules."""
    return f"{view.seat}/{len(view.players)}/{rules_digest(view.rules)}"


def hand_record(player: str, view: SeatView, result: HandResult, watcher: HandWatcher, *,
                at: str, preset: str | None = None) -> HandRecord:
    """The record of the hand ``result`` ends, from ``view`` (the player's own seat's view;
    its own cards come from ``watcher``, which saw that seat's views only)."""
    assert view.seat is not None, "a record is made from a seat's own view"
    me = view.players[view.seat]
    seen = watcher.hand_no == result.hand_no
    rules = view.rules
    return HandRecord(
        player=player, at=at, variant=rules.variant, preset=preset or preset_of(rules),
        sig=seat_sig(view), seat=view.seat,
        names=tuple(p.name for p in view.players), hand_no=result.hand_no,
        cards=tuple(watcher.cards) if seen else (), held=tuple(watcher.held) if seen else (),
        match=tuple(watcher.match) if seen else (),
        chips=me.chips + me.contributed if rules.uses_chips else None, tokens=me.tokens,
        result=result, partial=not (seen and watcher.whole))


def standing_place(view: SeatView, seat: int) -> tuple[int, bool]:
    """``seat``'s place in the final standings (equal scores share it) and whether that is
    a win (first, and not left the table).

    The order of ``engine.scoring.standings`` (:func:`engine.scoring.ranked`)."""
    from pokeroulette_tui.engine.scoring import ranked

    place = next(pl for pl, i, __ in ranked(list(enumerate(view.players)),
                                             view.rules.scoring == "forfeit") if i == seat)
    return place, place == 1 and view.players[seat].status != "left"


# -- totals -----------------------------------------------------------------------------------

@dataclass
class Tally:
    """Counts for one variant and preset (or all of them)."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    hands_won: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    tokens_lost: int = 0
    chips_won: int = 0

    def add(self, other: "Tally") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Tally":
        return cls(**{f.name: int(d.get(f.name, 0)) for f in fields(cls)})


@dataclass(frozen=True)
class BestHand:
    """The best hand the player has shown, with its cards, when and where."""

    name: str
    category: str
    cards: tuple[str, ...]
    at: str
    group: str
    score: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "category": self.category, "cards": list(self.cards),
                "at": self.at, "group": self.group, "score": list(self.score)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BestHand":
        return cls(name=str(d["name"]), category=str(d["category"]),
                   cards=tuple(str(c) for c in d["cards"]), at=str(d["at"]),
                   group=str(d["group"]), score=tuple(int(s) for s in d["score"]))


def best_of(rec: HandRecord) -> BestHand | None:
    """The hand ``rec``'s player showed, as a best-hand candidate."""
    shown = rec.result.hand(rec.seat) if rec.showdown else None
    if shown is None:
        return None
    cards = tuple(c.text for c in shown.cards)
    return BestHand(name=shown.name, category=shown.category, cards=cards, at=rec.at,
                    group=rec.group,
                    score=hand_score(shown.category, cards, (j.text for j in shown.jokers)))


@dataclass
class PlayerStats:
    """One player's statistics: totals by variant and preset, the best hand, chips over
    time, and what is needed to count each hand and game once."""

    player: str
    tallies: dict[str, Tally] = field(default_factory=dict)
    best: BestHand | None = None
    series: deque[tuple[str, int]] = field(default_factory=lambda: deque(maxlen=SERIES))
    _keys: dict[str, None] = field(default_factory=dict, repr=False)
    _open: dict[str, tuple[str, int, str]] = field(default_factory=dict, repr=False)
    _closed: set[str] = field(default_factory=set, repr=False)

    def tally(self, group: str | None = None) -> Tally:
        """The counts of one ``"variant · preset"`` group, or of all together."""
        if group is not None:
            return self.tallies.get(group, Tally())
        total = Tally()
        for t in self.tallies.values():
            total.add(t)
        return total

    def _group(self, group: str) -> Tally:
        return self.tallies.setdefault(group, Tally())

    def add_hand(self, rec: HandRecord) -> HandRecord | None:
        """Count a hand; returns it with its game and key filled in, or None when it was
        counted before (the same hand seen again, as after a resume)."""
        if not rec.key:
            text = json.dumps([rec.sig, rec.result.to_dict()], sort_keys=True)
            rec = _with(rec, key=hashlib.sha1(text.encode("utf-8")).hexdigest()[:16])
        if rec.key in self._keys:
            return None
        if not rec.game:  # the game in play with these seats and rules, if it goes on
            game, last, __ = self._open.get(rec.sig, ("", 0, ""))
            if not game or rec.hand_no <= last:
                rec = _with(rec, game=secrets.token_hex(6), first=True)
            else:
                rec = _with(rec, game=game)
        self._fold_hand(rec)
        return rec

    def _fold_hand(self, rec: HandRecord) -> None:
        self._keys[rec.key] = None
        if len(self._keys) > RECENT_KEYS:
            del self._keys[next(iter(self._keys))]
        self._open[rec.sig] = (rec.game, rec.hand_no, rec.group)
        t = self._group(rec.group)
        t.games += rec.first
        t.hands += 1
        t.hands_won += rec.won
        t.showdowns += rec.showdown
        t.showdowns_won += rec.won_showdown
        t.tokens_lost += rec.tokens_lost
        t.chips_won += rec.result.won(rec.seat)
        candidate = best_of(rec)
        if candidate is not None and (self.best is None or candidate.score > self.best.score):
            self.best = candidate
        if rec.chips is not None:
            self.series.append((rec.at, rec.chips))

    def open_game(self, sig: str) -> str | None:
        """The game in play with these seats and rules (None: none, or it has ended)."""
        game = self._open.get(sig, ("", 0, ""))[0]
        return game if game and game not in self._closed else None

    def add_game(self, rec: GameRecord) -> GameRecord | None:
        """Count a game's end (None: that game's end was counted before)."""
        if rec.game in self._closed:
            return None
        self._closed.add(rec.game)
        for sig, (game, __, ___) in list(self._open.items()):
            if game == rec.game:
                del self._open[sig]
        t = self._group(f"{rec.variant} · {rec.preset}")
        t.finished += 1
        t.wins += rec.won
        return rec

    # -- the totals line of a compacted file ---------------------------------------------------
    def totals_dict(self) -> dict[str, Any]:
        return {"kind": "totals", "v": VERSION, "player": self.player,
                "tallies": {g: asdict(t) for g, t in self.tallies.items()},
                "best": self.best.to_dict() if self.best else None,
                "series": [list(p) for p in self.series],
                "keys": list(self._keys), "closed": sorted(self._closed),
                "open": {s: list(v) for s, v in self._open.items()}}

    def load_totals(self, d: dict[str, Any]) -> None:
        """Start from a totals line (raises KeyError/TypeError/ValueError if malformed)."""
        self.tallies = {str(g): Tally.from_dict(t) for g, t in d["tallies"].items()}
        self.best = BestHand.from_dict(d["best"]) if d.get("best") else None
        self.series.clear()
        self.series.extend((str(a), int(c)) for a, c in d.get("series", []))
        self._keys = {str(k): None for k in d.get("keys", [])}
        self._closed = {str(g) for g in d.get("closed", [])}
        self._open = {str(s): (str(v[0]), int(v[1]), str(v[2])) for s, v in d.get("open", {}).items()}


def _with(rec: HandRecord, **changes: Any) -> HandRecord:
    from dataclasses import replace

    return replace(rec, **changes)


def record_from_dict(d: Any) -> HandRecord | GameRecord:
    """A hand or game record from its JSON; ValueError (with the reason) if it is not one."""
    if not isinstance(d, dict):
        raise ValueError(_("not a record"))
    try:
        if d.get("kind") == "hand":
            return HandRecord.from_dict(d)
        if d.get("kind") == "game":
            return GameRecord.from_dict(d)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        from pokeroulette_tui.engine.save import problem_words

        raise ValueError(_("a {kind} record is malformed ({error})").format(
            kind=d.get("kind"), error=problem_words(exc))) from None
    raise ValueError(_("unknown record kind {kind}").format(kind=repr(d.get("kind"))))
