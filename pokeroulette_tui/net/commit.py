"""Deck commitments: the server binds itself to every card's place before a hand; clients verify.

Before a hand, the server sends one commitment per physical card of the shuffled shoe,
``sha256(nonce_i || card_text)`` with a fresh 32-byte nonce per card. Whenever a client is
shown a card, it also gets that card's ``(index, nonce)`` and checks it against the list.
Nonces of cards a client never sees (other seats' hidden cards, folded and mucked cards,
the undealt deck) are never sent to it, so the commitments reveal nothing about them.

Physical cards are followed by object identity: the table's random generator is wrapped so
that every shuffle of a fresh shoe hands out a fresh ``Card`` object per physical card (two
decks, or two jokers, give equal but distinct objects). When discards are shuffled back into
the deck in the middle of a hand, those cards get new indices and new commitments (a
``commit`` message with ``start`` > 0), so a re-dealt card never shows where it was first dealt.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from bisect import bisect_right
from itertools import accumulate, chain
from typing import Any, Callable, Iterable

from pokeroulette_tui.engine.cards import BY_INDEX, Card, parse_card
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.state import GameState

NONCE_BYTES = 32
ALGORITHM = "sha256(nonce || card)"
_CANONICAL = {id(c): c for c in BY_INDEX}


def commitment(nonce: bytes, card_text: str) -> str:
    """The commitment to one card: hex SHA-256 of the nonce bytes then the card's ASCII text.

    >>> commitment(bytes(32), "As")[:16]
    'f8ad53c08b9dad72'
    """
    return hashlib.sha256(nonce + card_text.encode("ascii")).hexdigest()


# -- following physical cards ---------------------------------------------------------

class _Tracking:
    """Mixin for a random generator: fresh card objects for new shoes, and a note of
    already-dealt cards shuffled again (a reshuffle of discards)."""

    reshuffled: list[list[Card]]

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)  # type: ignore[misc]
        again: list[Card] = []
        for i, c in enumerate(x):
            if isinstance(c, Card):
                if _CANONICAL.get(id(c)) is c:
                    x[i] = Card(c.rank, c.suit)
                else:
                    again.append(c)
        if again:
            self.reshuffled.append(again)


class TrackingRandom(_Tracking, random.Random):
    """A seeded generator (tests, replays) that follows physical cards."""

    def __init__(self, seed: Any = None) -> None:
        self.reshuffled = []
        super().__init__(seed)


class TrackingSystemRandom(_Tracking, secrets.SystemRandom):
    """The operating system's CSPRNG (real play), following physical cards."""

    def __init__(self) -> None:
        self.reshuffled = []
        super().__init__()


def install_tracking(state: GameState) -> None:
    """Give ``state`` a tracking generator that draws exactly the same numbers as before."""
    if isinstance(state.rng, _Tracking):
        return
    if state.seeded and not isinstance(state.rng, secrets.SystemRandom):
        rng: random.Random = TrackingRandom()
        rng.setstate(state.rng.getstate())
    else:
        rng = TrackingSystemRandom()
    state.rng = rng


def _zones(state: GameState) -> dict[str, list[Card]]:
    """Every place a dealt card can be, by a stable name."""
    zones: dict[str, list[Card]] = {"deck": state.deck, "discards": state.discards}
    for key in ("match", "last_match"):
        card = getattr(state, key)
        zones[key] = [card] if card is not None else []
    for n, s in enumerate(state.seats):
        for key in ("stock", "actives", "hand", "added"):
            zones[f"{n}.{key}"] = getattr(s, key)
    return zones


def _zone_lists(state: GameState) -> list[list[Card]]:
    """The card lists of :func:`_zones`, in the same order, without their names."""
    m, lm = state.match, state.last_match
    lists = [state.deck, state.discards, [m] if m is not None else [],
             [lm] if lm is not None else []]
    for s in state.seats:
        lists += (s.stock, s.actives, s.hand, s.added)
    return lists


_NAMES: dict[int, list[str]] = {}


def _zone_names(seats: int) -> list[str]:
    """The names of :func:`_zones`, in the same order, for a table of ``seats`` seats."""
    names = _NAMES.get(seats)
    if names is None:
        names = _NAMES[seats] = ["deck", "discards", "match", "last_match"] + [
            f"{n}.{key}" for n in range(seats) for key in ("stock", "actives", "hand", "added")]
    return names


# -- the server's side -------------------------------------------------------------

class DeckCommitter:
    """The dealer's commitments for the current hand and what each viewer has been shown."""

    def __init__(self, nonce_source: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self.nonce_source = nonce_source
        self.hand_no = 0
        self.cards: list[Card] = []          # index -> physical card object
        self.nonces: list[bytes] = []
        self.commitments: list[str] = []
        self.pos: dict[int, int] = {}        # id(card object) -> its current index
        self.revealed: dict[int | None, dict[int, None]] = {}  # viewer -> indices (ordered)
        self.unsaved: list[list[Any]] = []   # openings not yet journalled: [viewer, [indices]]
        self._unique: dict[str, int] = {}    # card text -> its index, for faces met once
        self._unique_stamp: tuple[int, int] = (0, 0)
        self._shoe: list[Card] | None = None
        self._fixed: dict[str, Any] | None = None  # this hand's cards and nonces, as saved
        self._covered: dict[int | None, tuple[dict[int, None], tuple[int, ...]]] = {}
        """Per viewer, the indices of its last :meth:`open` (all opened since) and the
        ``revealed`` entry they are in: the same indices again are looked up no more."""

    def refresh(self, state: GameState) -> list[dict[str, Any]]:
        """Commit to a new shoe or to reshuffled cards; returns the ``commit`` messages."""
        out: list[dict[str, Any]] = []
        rng = state.rng
        if state.shoe_order and state.shoe_order is not self._shoe:
            self._shoe = state.shoe_order
            self.hand_no = state.hand_no
            self.cards, self.nonces, self.commitments, self.pos = [], [], [], {}
            self.revealed, self.unsaved, self._fixed, self._covered = {}, [], None, {}
            self._unique_stamp = (0, 0)  # (a new list may get the old one's id)
            if isinstance(rng, _Tracking):
                rng.reshuffled.clear()
            out.append(self._add(list(state.shoe_order)))
        if isinstance(rng, _Tracking) and rng.reshuffled:
            for group in rng.reshuffled:
                group = [c for c in group if id(c) in self.pos]
                if group:
                    out.append(self._add(group))
            rng.reshuffled.clear()
        return out

    def _add(self, cards: list[Card]) -> dict[str, Any]:
        start = len(self.cards)
        new = []
        for card in cards:
            nonce = self.nonce_source(NONCE_BYTES)
            self.pos[id(card)] = len(self.cards)
            self.cards.append(card)
            self.nonces.append(nonce)
            c = commitment(nonce, card.text)
            self.commitments.append(c)
            new.append(c)
        return self.commit_message(start, new)

    def commit_message(self, start: int = 0, commitments: list[str] | None = None) -> dict[str, Any]:
        """The ``commit`` message (:class:`~pokeroulette_tui.net.messages.Commit`) for the
        commitments from ``start`` (all of them by default)."""
        from pokeroulette_tui.net.messages import Commit
        made = list(self.commitments if commitments is None else commitments)
        if start != 0:
            return Commit(self.hand_no, ALGORITHM, start, made).to_wire()
        # from the start: the shoe's make-up, which the client checks the openings against (a
        # rejoining client gets every commitment so far: the first ``shoe`` are the shoe's,
        # any more came from reshuffles)
        shoe = self._shoe or []
        jokers = sum(1 for c in shoe if c.is_joker)
        return Commit(self.hand_no, ALGORITHM, start, made, decks=(len(shoe) - jokers) // 52,
                      jokers=jokers, shoe=len(shoe)).to_wire()

    def reveal(self, viewer: int | None, shown: Iterable[Card | None]) -> list[list[Any]]:
        """``[index, nonce hex, card]`` for every card in ``shown`` this viewer has not been
        opened yet. ``shown`` must be exactly what the viewer is shown (its view, its events)."""
        if not self.cards:
            return []
        return self.open(viewer, self.indices(shown))

    def indices(self, shown: Iterable[Card | None]) -> list[int]:
        """The committed index of each card object in ``shown`` that is from this hand's shoe
        (in order; faces of other decks, such as the suit-ranking draw, and None skipped)."""
        pos, cards = self.pos, self.cards
        out = []
        for card in shown:
            i = pos.get(id(card))
            if i is not None and cards[i] is card:
                out.append(i)
        return out

    def open(self, viewer: int | None, indices: Iterable[int],
             more: Iterable[int] = ()) -> list[list[Any]]:
        """``[index, nonce hex, card]`` for each of ``indices`` then ``more`` (from
        :meth:`indices` of what the viewer is shown) this viewer has not been opened yet; they
        count as opened now. The same as ``open(viewer, [*indices, *more])``; ``indices``
        the same as this viewer's last call's (the cards it is shown every time, and
        ``more`` those of this step's events) are looked up no more.

        >>> c = DeckCommitter(lambda n: bytes(n))
        >>> c.cards, c.nonces = [parse_card("As"), parse_card("Kd")], [bytes(2), bytes(2)]
        >>> c.open(0, (1,), [0, 1]), c.open(0, (1,), [0]), c.open(0, [1, 0])
        ([[1, '0000', 'Kd'], [0, '0000', 'As']], [], [])
        """
        if not self.cards:
            return []
        if type(indices) is not tuple:  # (a tuple is kept as it is: it cannot change)
            indices = tuple(indices)
        seen = self.revealed.get(viewer)
        if seen is None:
            seen = self.revealed[viewer] = {}
        last = self._covered.get(viewer)
        if last is not None and last[0] is seen and (last[1] is indices or last[1] == indices):
            # the same cards as this viewer's last call: all opened then
            if not more:
                return []
            new = [i for i in more if i not in seen]
        else:  # (mostly none new: every card seen before)
            new = [i for i in chain(indices, more) if i not in seen]
            self._covered[viewer] = (seen, indices)
        out = []
        for i in new:
            if i not in seen:  # (an index twice in ``indices``: opened once)
                seen[i] = None
                out.append([i, self.nonces[i].hex(), self.cards[i].text])
        if out:
            self.unsaved.append([viewer, [o[0] for o in out]])
        return out

    def opened(self, viewer: int | None) -> list[list[Any]]:
        """Every opening this viewer has had this hand (sent again after a reconnect)."""
        return [[i, self.nonces[i].hex(), self.cards[i].text]
                for i in self.revealed.get(viewer, {})]

    # -- crash safety ----------------------------------------------------------
    def to_dict(self, state: GameState) -> dict[str, Any]:
        """Everything needed to carry on after a restart (nonces included: keep it private)."""
        if not self.cards:
            return {}
        return {**self.fixed(), "placed": self.misplaced(state), "revealed": self.revealed_list()}

    def fixed(self) -> dict[str, Any]:
        """The part of :meth:`to_dict` that changes only with a new shoe or a reshuffle: the
        same object until then (so a journal writes it once a hand)."""
        if not self.cards:
            return {}
        if self._fixed is None or len(self._fixed["cards"]) != len(self.cards):
            self._fixed = {"hand_no": self.hand_no, "cards": [c.text for c in self.cards],
                           "nonces": [n.hex() for n in self.nonces]}
        return self._fixed

    def take_unsaved(self) -> list[list[Any]]:
        """The openings since the last call (or since the last new hand), as
        ``[viewer, [indices]]`` to append to what was saved: a journal writes each once."""
        out, self.unsaved = self.unsaved, []
        return out

    def _unique_indices(self) -> dict[str, int]:
        """Card text -> the last committed index of that face: where a card of that face
        is unless :meth:`misplaced` says otherwise (a reshuffled card's newest index; of a
        face met in two decks, or of the two jokers, the later one)."""
        stamp = (id(self.cards), len(self.cards))
        if stamp != self._unique_stamp:
            self._unique = {c.text: i for i, c in enumerate(self.cards)}
            self._unique_stamp = stamp
        return self._unique

    def misplaced(self, state: GameState) -> list[list[Any]]:
        """``[zone, position, index]`` for each card of the state's zones whose committed
        index is not the last of its face's: the earlier of two jokers, the earlier deck's
        card of a face met in two decks, or a card of no index that has a face of this
        hand's (an earlier hand's last match card: index -1). With these, :meth:`restore`
        re-links every card exactly as :meth:`zones` places it; for a one-deck hand it is
        one joker at most (in one or two zones), so a journal seldom writes it again.

        Only the cards that can be such a card are looked at one by one: those of no index
        and those whose index is not their face's last (:meth:`_odd_ids`); the others are
        sorted out by their ids, all at once. While no card moved (the same objects in the
        same places, the same commitments), the list of the last call is given again: the
        same object, not to be changed."""
        pos, cards, unique = self.pos, self.cards, self._unique_indices()
        odd = self._odd_ids()
        lists = _zone_lists(state)
        flat = list(map(id, chain.from_iterable(lists)))
        lens = list(map(len, lists))
        last = self._misplaced_last
        if last is not None and last[0] is self._odd_for and last[1] == len(pos) \
                and last[2] is cards and last[3] == flat and last[4] == lens:
            return last[6]  # (every card of the last call's is kept alive: by ``cards``, or
        present = set(flat)  # with the answer: an id there is still that card's)
        loose = present.difference(pos)  # of no index (none, mostly)
        maybe = loose.union(present.intersection(odd))
        out: list[list[Any]] = []
        kept: list[Card] = []
        if maybe:
            if len(maybe) > 8:  # (two decks: half the cards)
                at = [k for k, x in enumerate(flat) if x in maybe]
            else:  # (one deck: a joker, perhaps an earlier hand's card): found where they are
                at = []
                for x in maybe:
                    k = flat.index(x)
                    at.append(k)
                    for __ in range(flat.count(x) - 1):  # (in two zones at once)
                        k = flat.index(x, k + 1)
                        at.append(k)
                at.sort()
            names = _zone_names(len(state.seats))
            ends = list(accumulate(lens))
            for k in at:
                z = bisect_right(ends, k)  # (the zone, and the place in it)
                card = lists[z][k - ends[z] + lens[z]]
                if id(card) in loose:
                    kept.append(card)
                i = pos.get(id(card), -1)
                if i >= 0 and cards[i] is not card:
                    i = -1
                if unique.get(card.text, -1) != i:
                    out.append([names[z], k - ends[z] + lens[z], i])
        self._misplaced_last = (self._odd_for, len(pos), cards, flat, lens, kept, out)
        return out

    _misplaced_last: Any = None  # (the last call of misplaced: what it was of, its answer)

    _odd_for: Any = None  # (made lazily, for the indices by face of this stamp…
    _odd_len = -1         # … and this many cards placed)
    _odd: frozenset[int] = frozenset()

    def _odd_ids(self) -> frozenset[int]:
        """The ids of the committed cards whose index is not the last of their face's (see
        :meth:`misplaced`): made again when the commitments change."""
        unique, cards = self._unique_indices(), self.cards
        stamp = self._unique_stamp  # (a new object whenever the indices by face are made)
        if self._odd_for is not stamp or self._odd_len != len(self.pos):
            self._odd = frozenset(k for k, i in self.pos.items()
                                  if unique.get(cards[i].text, -1) != i)
            self._odd_for, self._odd_len = stamp, len(self.pos)
        return self._odd

    def zones(self, state: GameState) -> dict[str, list[int]]:
        """Where each committed card is now (index by zone); changes as cards move."""
        pos = self.pos
        return {k: [pos.get(id(c), -1) for c in cards] for k, cards in _zones(state).items()}

    def revealed_list(self) -> list[list[Any]]:
        """Which indices each viewer has been opened, as saved."""
        return [[v, list(ix)] for v, ix in self.revealed.items()]

    def restore(self, state: GameState, data: dict[str, Any]) -> None:
        """Rebuild from :meth:`to_dict` and re-link the state's cards to their indices."""
        install_tracking(state)
        if not data or data.get("hand_no") != state.hand_no or not state.shoe_order:
            self._shoe = state.shoe_order or None  # an old hand: never commit to it again
            return
        texts = data["cards"]
        self.hand_no = state.hand_no
        self.nonces = [bytes.fromhex(n) for n in data["nonces"]]
        self.cards = [parse_card(t) for t in texts]
        self.cards = [Card(c.rank, c.suit) for c in self.cards]
        self.commitments = [commitment(n, c.text) for n, c in zip(self.nonces, self.cards)]
        self.pos = {}
        if "placed" in data:  # a card by its face's last index, unless written otherwise
            placed = {(str(key), int(k)): int(i) for key, k, i in data["placed"]}
            self._unique_stamp = (0, 0)
            unique = self._unique_indices()
        else:  # (older saves: every card's index by zone)
            placed = {(key, k): i for key, ix in data["zones"].items() for k, i in enumerate(ix)}
            unique = {}
        for key, cards in _zones(state).items():
            for k, card in enumerate(cards):
                i = placed.get((key, k), unique.get(card.text, -1))
                if 0 <= i < len(self.cards) and self.cards[i] == card:
                    obj = self.cards[i]
                    if key in ("match", "last_match"):
                        setattr(state, key, obj)
                    else:
                        cards[k] = obj
                    self.pos[id(obj)] = i
        # an object shared by two zones (a stock card also listed in "added") is re-linked
        # to the same index object above; reshuffled cards keep only their newest index
        self.revealed, self._covered = {}, {}
        for v, ix in data.get("revealed", []):  # (a viewer may come more than once: appended)
            self.revealed.setdefault(v, {}).update(dict.fromkeys(int(i) for i in ix))
        self.unsaved = []
        self._shoe, self._fixed = state.shoe_order, None


# -- the client's side --------------------------------------------------------------

def shown_cards(view: Any) -> list[Card]:
    """The faces a SeatView shows from this hand's shoe, each physical card once (the suit
    ranking draw is another deck; ``last_match`` is the match card or a discard already)."""
    out = [c for c in (view.match,) if c is not None]
    out += [c for c in view.discards if c is not None]
    for p in view.players:
        out += [c for c in p.stock + p.actives + p.hand if c is not None]
    return out


DEALS = frozenset(("stock_dealt", "actives_dealt", "match_card", "cut", "hand_dealt"))

_MISPLACED_MATCH = N_("the match card {card} was not dealt from its place in the shoe "
                      "(position {position})")
_MISPLACED_STOCK = N_("your stock card {card} was not dealt from its place in the shoe "
                      "(position {position})")
_MISPLACED_CARD = N_("your card {card} was not dealt from its place in the shoe "
                     "(position {position})")


class DeckVerifier:
    """Checks every card a client is shown against the dealer's commitments, and that the
    dealer deals them from the places it committed to (docs/PROTOCOL.md §11).

    The shoe's index 0 is its bottom card and the last index its top: cards are dealt from
    the top, so the k-th card dealt in a hand (k from 0) is at index ``N - 1 - k``, or after a
    cut of ``p`` cards (draw) at ``(N - 1 - p - k) mod N``. Checked: no card is opened from
    the part of the shoe not dealt yet; the match card is the last card dealt when it is
    turned; your own stock card (Poker Roulette) and your five cards (draw) come from the
    places the deal order gives your seat; no card is opened more often than the shoe's
    make-up holds it; one commitment per hand; the algorithm is the one this client knows.
    After a mid-hand reshuffle only the openings themselves are checked.
    """

    def __init__(self) -> None:
        self.hand_no = 0
        self.commitments: list[str] = []
        self.opened: dict[int, str] = {}
        self.problems: list[str] = []
        self.first = 0          # commitments in the hand's first shoe (N)
        self.cut = 0            # cards cut from the top before the deal (draw)
        self.reshuffled = False
        self.makeup: Counter[str] | None = None  # how many of each card the shoe holds
        self.fresh: bool | None = None  # seen from the deal on (not joined mid-hand)

    def on_commit(self, msg: dict[str, Any]) -> list[str]:
        hand_no, start, new = msg.get("hand_no"), msg.get("start", 0), msg.get("commitments")
        if not isinstance(new, list) or not all(isinstance(c, str) and len(c) == 64 for c in new):
            return self._problem(_("the dealer sent a malformed deck commitment"))
        if msg.get("algorithm") != ALGORITHM:
            return self._problem(_("the dealer committed with {theirs}, not {ours}").format(
                theirs=repr(str(msg.get("algorithm"))[:40]), ours=repr(ALGORITHM)))
        if start == 0:
            if self.commitments and isinstance(hand_no, int) and hand_no <= self.hand_no:
                if hand_no == self.hand_no and new[:len(self.commitments)] == self.commitments:
                    # the same commitment again (a reconnection's catch-up), perhaps with a
                    # reshuffle's added since: what was checked stays checked
                    self.reshuffled |= len(new) > len(self.commitments)
                    self.commitments = list(new)
                    return []
                return self._problem(_("a second, different deck commitment for hand {hand}: "
                                       "the first one stands").format(hand=hand_no))
            self.hand_no = hand_no if isinstance(hand_no, int) else 0
            self.commitments, self.opened, self.problems = list(new), {}, []
            shoe = msg.get("shoe")
            self.first = shoe if type(shoe) is int and 0 < shoe <= len(new) else len(new)
            self.cut, self.reshuffled = 0, self.first < len(new)
            self.makeup, self.fresh = None, None
            decks, jokers = msg.get("decks"), msg.get("jokers")
            if type(decks) is int and type(jokers) is int and decks > 0 and jokers >= 0:
                self.makeup = Counter({c.text: decks for c in BY_INDEX if not c.is_joker})
                self.makeup["*"] = jokers
                if self.first != 52 * decks + jokers:
                    return self._problem(_("the dealer committed to {first} cards, not the "
                                           "{total} of {decks} deck(s) and {jokers} joker(s)"
                                           ).format(first=self.first, total=52 * decks + jokers,
                                                    decks=decks, jokers=jokers))
            return []
        if hand_no != self.hand_no or start != len(self.commitments):
            return self._problem(_("the dealer's extra commitment does not follow the first "
                                   "one"))
        self.commitments.extend(new)
        self.reshuffled = True
        return []

    def on_state(self, view: Any, events: Iterable[Any], reveals: Any) -> list[str]:
        """A ``state`` message: its openings, then where the cards it deals came from."""
        bad = self.on_reveals(reveals)
        if not self.commitments or view.hand_no != self.hand_no:
            return bad
        kinds = {e.kind: e for e in events}
        if "cut" in kinds:
            self.cut = int(kinds["cut"].amount) % max(1, self.first)
        n = self.first
        dealt = n - int(view.deck_count)
        if self.fresh is None:  # joined in the middle of a hand: the deal was not seen
            self.fresh = dealt == 0 or bool(DEALS & kinds.keys())
        if self.reshuffled or not self.fresh:
            return bad
        for i, text in self.opened.items():
            if i < n and (n - 1 - self.cut - i) % n >= dealt:
                bad += self._problem(_("{card} was opened from shoe position {position}, which "
                                       "has not been dealt yet").format(card=text, position=i))
                break
        expect: list[tuple[int, Any, str]] = []
        if "match_card" in kinds and view.match is not None:
            expect.append((dealt - 1, view.match, _MISPLACED_MATCH))
        me = view.seat
        if me is not None:
            if "stock_dealt" in kinds and view.players[me].stock:
                order, pos = self._order(view, view.button + 1, me, live=False)
                if pos is not None:
                    expect.append((pos, view.players[me].stock[0], _MISPLACED_STOCK))
            if "hand_dealt" in kinds and view.players[me].hand:
                order, pos = self._order(view, view.button + 1, me, live=True)
                if pos is not None:
                    expect += [(r * len(order) + pos, card, _MISPLACED_CARD)
                               for r, card in enumerate(view.players[me].hand[:5])]
        for k, card, words in expect:
            i = (n - 1 - self.cut - k) % n
            if card is not None and self.opened.get(i) != card.text:
                bad += self._problem(_(words).format(card=card.text, position=i))
        return bad

    @staticmethod
    def _order(view: Any, start: int, me: int, *, live: bool) -> tuple[list[int], int | None]:
        """The seats dealt to, clockwise from ``start``, and ``me``'s place among them."""
        players = view.players
        count = len(players)
        order = [(start + j) % count for j in range(count)]
        order = [i for i in order if players[i].in_hand
                 and not (live and (players[i].folded or players[i].status == "left"))]
        return order, (order.index(me) if me in order else None)

    def on_reveals(self, reveals: Any) -> list[str]:
        """Check openings; returns the problems found (empty when all is well)."""
        bad: list[str] = []
        if not isinstance(reveals, list):
            return self._problem(_("the dealer sent malformed card openings"))
        for item in reveals:
            try:
                i, nonce_hex, text = item
                nonce = bytes.fromhex(nonce_hex)
                card = parse_card(text)
            except (TypeError, ValueError):
                bad += self._problem(_("the dealer sent a malformed card opening"))
                continue
            if not isinstance(i, int) or not 0 <= i < len(self.commitments):
                bad += self._problem(_("card {card} was opened at position {position}, outside "
                                       "the deck").format(card=text, position=i))
            elif commitment(nonce, card.text) != self.commitments[i]:
                bad += self._problem(_("card {card} does NOT match the dealer's commitment"
                                       ).format(card=card.text))
            elif self.opened.get(i, card.text) != card.text:
                bad += self._problem(_("position {position} was opened as two different cards"
                                       ).format(position=i))
            else:
                self.opened[i] = card.text
                if self.makeup is not None and i < self.first and sum(
                        1 for j, t in self.opened.items() if t == card.text and j < self.first
                ) > self.makeup[card.text]:
                    bad += self._problem(_("more {card} were opened than the shoe holds"
                                           ).format(card=card.text))
        return bad

    def _problem(self, text: str) -> list[str]:
        self.problems.append(text)
        return [text]

    def unverified(self, cards: Iterable[Card]) -> list[Card]:
        """Cards shown (from this hand's shoe) that no opening covers."""
        have = Counter(self.opened.values())
        missing = []
        for card in cards:
            if have[card.text] > 0:
                have[card.text] -= 1
            else:
                missing.append(card)
        return missing

    def summary(self, cards: Iterable[Card]) -> str:
        cards = list(cards)
        if not self.commitments:
            return _("deck check: no commitment for this hand")
        if self.problems:
            return _("deck check FAILED (hand {hand}): {problem}").format(
                hand=self.hand_no, problem=self.problems[-1])
        missing = self.unverified(cards)
        if missing:
            return _("deck check: {n} card(s) shown without an opening ({cards})").format(
                n=len(missing), cards=" ".join(c.text for c in missing[:5]))
        return _("deck check ✓ hand {hand}: all {n} cards you were shown match the dealer's "
                 "commitment").format(hand=self.hand_no, n=len(self.opened))
