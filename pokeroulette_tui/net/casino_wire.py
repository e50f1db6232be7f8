"""The casino table's messages (docs/PROTOCOL.md §11): what a casino host and its clients
say, built and read here, with no sockets.

The casino has no hidden cards: every bet, bankroll and dealt card is public at the table, so
one ``casino`` state serves everyone (only ``you`` differs). The deck is shuffled when bets
close and is never sent: a card is known to anyone only once it is dealt.
"""

from __future__ import annotations

from typing import Any

from pokeroulette_tui.engine.cards import CardError, card_from_json, card_to_json
from pokeroulette_tui.engine.casino.board import Bet, BetError
from pokeroulette_tui.engine.casino.game import Casino, Player, Round, Settled, Stage
from pokeroulette_tui.engine.casino.paytable import PayTable, PayTableError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.protocol import ProtocolError

GAME = "casino"
"""The ``game`` a casino hello asks for and a casino welcome names."""
MAX_SEATS = 8
"""Players at one casino table (held seats of players who left count)."""
HISTORY = 20
"""Rounds of the history sent with each state."""
BET_KINDS = ("bet", "undo", "clear", "rebet", "ready", "rebuy")
"""What a seated player asks of a casino table (each with an ``id`` answered by ``ok`` or an
``error`` of the same ``id``)."""


# -- requests (client to host) ------------------------------------------------------------------

def hello(name: str, *, password: str = "", token: str = "") -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello", "version": P.VERSION, "name": name,
                           "spectate": False, "client": "pokeroulette", "game": GAME}
    if password:
        msg["password"] = password
    if token:
        msg["token"] = token
    return msg


def request(request: str, ref: int, **fields: Any) -> dict[str, Any]:
    """A request to the host (``fields``: a bet's ``kind``, ``target`` and ``amount``)."""
    return {"type": request, "id": ref, **fields}


def parse_request(msg: dict[str, Any]) -> tuple[str, int | None, dict[str, Any]]:
    """A seated player's request: (kind, id, its checked fields); ProtocolError in words."""
    kind = msg["type"]
    ref = msg.get("id")
    if ref is not None and (type(ref) is not int or not 0 <= ref < 2**53):
        raise ProtocolError('"id" must be a whole number')
    if kind == "bet":
        fields = {"kind": P.want_str(msg, "kind", limit=20),
                  "target": P.want_str(msg, "target", limit=40, default=""),
                  "amount": P.want_int(msg, "amount", lo=1, hi=P.MAX_AMOUNT)}
        return kind, ref, fields
    if kind == "ready":
        return kind, ref, {"ready": P.want_bool(msg, "ready", True)}
    if kind in BET_KINDS or kind in ("ping", "quit"):
        return kind, ref, {}
    raise ProtocolError(f"a casino table takes no {kind[:32]!r} message (it takes: "
                        f"{', '.join(BET_KINDS)}, ping, quit)")


# -- the host's messages ------------------------------------------------------------------------

def welcome(*, name: str, seat: int, token: str | None, password: bool, seeded: bool,
            table: PayTable, deal_pause: float, bet_timeout: float,
            result_pause: float) -> dict[str, Any]:
    return {"type": "welcome", "game": GAME, "version": P.VERSION, "name": name, "seat": seat,
            "token": token, "spectator": False, "admin": False, "started": True,
            "password": password, "seeded": seeded, "pay_table": table.to_dict(),
            "deal_pause": deal_pause, "bet_timeout": bet_timeout,
            "result_pause": result_pause}


def which() -> dict[str, Any]:
    """The answer to a ``which`` probe: what this table plays (then the host closes)."""
    return {"type": "which", "game": GAME, "version": P.VERSION}


def ok(ref: int | None, text: str = "", bet: Bet | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "ok", "id": ref, "text": text}
    if bet is not None:
        msg["bet"] = bet.to_dict()
    return msg


def _player(p: Player, connected: bool, ready: bool) -> dict[str, Any]:
    return {"name": p.name, "bankroll": p.bankroll, "bets": [b.to_dict() for b in p.bets],
            "results": [r.to_dict() for r in p.results], "connected": connected,
            "ready": ready, "last_bets": [b.to_dict() for b in p.last_bets]}


def state(c: Casino, seats: list[tuple[bool, bool]], *, closes_in: float | None,
          next_in: float | None) -> dict[str, Any]:
    """The table for everyone (``seats``: each player's connected and ready); the host adds
    ``you`` per connection. Never the deck."""
    return {"type": "casino", "stage": str(c.stage), "round": c.round_no,
            "jackpot": c.jackpot_hundredths,
            "dealt": [card_to_json(card) for card in c.dealt],
            "players": [_player(p, *seats[i]) for i, p in enumerate(c.players)],
            "closes_in": closes_in, "next_in": next_in,
            "history": [r.to_dict() for r in c.history[-HISTORY:]], "log": list(c.log[-8:])}


# -- reading the host's messages (client side) --------------------------------------------------

def read_table(welcome_msg: dict[str, Any]) -> PayTable:
    """The pay table of a casino welcome (ProtocolError when it cannot be used)."""
    try:
        return PayTable.from_dict(welcome_msg.get("pay_table"))
    except PayTableError as exc:
        raise ProtocolError(f"the host's pay table cannot be used: {exc}") from None


def read_state(msg: dict[str, Any], table: PayTable,
               mirror: Casino | None) -> tuple[Casino, list[tuple[bool, bool]], int | None]:
    """A ``casino`` message as a table to draw (the mirror, updated), each seat's (connected,
    ready), and ``you``. Raises ProtocolError for a message that does not fit."""
    try:
        stage = Stage(msg["stage"])
        players, seats = [], []
        for d in msg["players"]:
            p = Player(_text(d["name"], P.MAX_NAME) or "?", _whole(d["bankroll"]))
            p.bets = [Bet.from_dict(b) for b in d["bets"]]
            p.results = [Settled(Bet.from_dict(r["bet"]), _whole(r["paid"]), _text(r["why"], 200))
                         for r in d["results"]]
            # what a rebet places (an older host sends none: the client keeps its own)
            p.last_bets = [Bet.from_dict(b) for b in d.get("last_bets", ())]
            players.append(p)
            seats.append((bool(d["connected"]), bool(d["ready"])))
        dealt = [card_from_json(t) for t in msg["dealt"]]
        if len(dealt) > 5 or any(card is None for card in dealt):
            raise ValueError("more than five cards")
        history = [Round.from_dict(r) for r in msg.get("history", [])][-HISTORY:]
        for r in history:
            r.hand = _text(r.hand, 60)
            r.names = tuple(_text(n, P.MAX_NAME) for n in r.names)
        you = msg.get("you")
        if you is not None and (type(you) is not int or not 0 <= you < len(players)):
            raise ValueError("not a seat")
        c = mirror or Casino(table, [], 0)
        c.players, c.stage, c.round_no = players, stage, _whole(msg["round"])
        c.jackpot_hundredths = _whole(msg["jackpot"])
        c.dealt = dealt  # type: ignore[assignment]
        c.history = history
        c.log = [_text(x, 300) for x in msg.get("log", [])][-8:]
        return c, seats, you
    except (KeyError, TypeError, ValueError, AttributeError, BetError, CardError) as exc:
        raise ProtocolError(f"a casino state that does not fit ({str(exc)[:60]})") from None


def _text(value: Any, limit: int) -> str:
    """A host's text for the screen: no control, escape or bidi character (a hostile host
    must not draw on the player's terminal)."""
    return P.clean_text(str(value), limit)


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"not a whole number: {value!r:.20}")
    return value
