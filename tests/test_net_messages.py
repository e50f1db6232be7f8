"""The typed wire messages (net/messages.py): each class round-trips, parsing refuses bad fields
with the host's own words, the host's real messages re-encode byte for byte, and the classes
match the message tables of docs/PROTOCOL.md."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.client import RemoteSession

from net_helpers import Harness, make_host

DOC = Path(__file__).resolve().parents[1] / "docs" / "PROTOCOL.md"

EVENT = {"kind": "check", "text": "Ana checks", "seat": 0, "cards": [], "amount": 0,
         "private": False, "public_text": "", "hand_no": 3}

SERVER_EXAMPLES: list[M.ServerMessage] = [
    M.Welcome(name="Ana", seat=0, token="k3Q", spectator=False, admin=False, started=False,
              password=True, account=None, seeded=False),
    M.Welcome(name="Spy", seat=None, token=None, spectator=True, admin=False, started=True,
              password=False, account="alice", seeded=True, hints=True),
    M.Error("nope"),
    M.Error("stale action", id=7),
    M.Error("wrong password", fatal=True),
    M.Lobby(started=False, you=1, spectators=2,
            seats=[M.LobbySeat(seat=0, name="Ana", bot=None, ready=True, connected=True,
                               host=False, away=False, left=False),
                   M.LobbySeat(seat=1, name="Bot 1", bot="random", ready=True, connected=True,
                               host=False, away=False, left=False)],
            rules=RuleSet().to_dict(), rules_text=["Game: Poker Roulette"], min_players=3,
            max_players=10, turn_timeout=60.0, headless=True, bot_level="random",
            start_problem="", leader=0, starts_in=None),
    M.Commit(hand_no=1, algorithm="sha256(nonce || card)", start=0, commitments=["a" * 64],
             decks=1, jokers=2, shoe=54),
    M.Commit(hand_no=1, algorithm="sha256(nonce || card)", start=54, commitments=["b" * 64]),
    M.State(version=42, view={"seat": 0, "phase": "betting"}, events=[EVENT],
            reveals=[[17, "9c", "Kd"]], deadline_in=27.5, next_deal_in=None, turn=2,
            seats=[{"connected": True, "away": False, "bot": False}]),
    M.History(hands=[[EVENT], []], page=True, more=True, first=3),
    M.History(hands=[]),
    M.ChatLine(seat=None, name="Spy", text="hi [bold]", spectator=True),
    M.Notice("Ana joined"),
    M.Ack(id=7, version=43),
    M.Pong(),
    M.Pong(id=5),
    M.Bye("the game is over"),
]

CLIENT_EXAMPLES: list[M.ClientMessage] = [
    M.Hello(name="Ana", spectate=False, client="pokeroulette"),
    M.Hello(name="Bo", spectate=True, password="pw", token="tok", admin="adm"),
    M.Ready(),
    M.Ready(False),
    M.Chat("hello there"),
    M.Act(id=1, version=0, action={"type": "raise", "amount": 30}),
    M.Start(),
    M.Bots(count=2),
    M.Bots(count=0, level="strong"),
    M.Kick(seat=3),
    M.Back(),
    M.Leave(),
    M.Quit(),
    M.Ping(),
    M.Ping(id=9),
    M.HistoryRequest(before=4),
]


def _wire(msg: Any) -> dict[str, Any]:
    """As a peer receives it: encoded to one line and decoded."""
    line = P.encode(msg.to_wire())
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return P.decode(line)


# -- round trips ---------------------------------------------------------------------------------

def test_the_examples_cover_every_class():
    assert {type(m) for m in SERVER_EXAMPLES} == set(M.SERVER.values())
    assert {type(m) for m in CLIENT_EXAMPLES} == set(M.CLIENT.values())
    assert tuple(M.SERVER) == P.SERVER_TYPES and tuple(M.CLIENT) == P.CLIENT_TYPES


@pytest.mark.parametrize("msg", SERVER_EXAMPLES, ids=repr)
def test_server_messages_round_trip(msg):
    back = M.parse_server(_wire(msg))
    assert back == msg and type(back) is type(msg)
    assert back.to_wire()["type"] == type(msg).kind


@pytest.mark.parametrize("msg", CLIENT_EXAMPLES, ids=repr)
def test_client_messages_round_trip(msg):
    back = M.parse_client(_wire(msg))
    assert back == msg and type(back) is type(msg)
    assert back.to_wire()["type"] == type(msg).kind


def test_the_client_sends_what_it_always_sent():
    """Byte for byte: the hello and an act as RemoteSession wrote them by hand before."""
    hello = M.Hello(name="Ana", spectate=False, token="t", client="pokeroulette")
    assert P.encode(hello.to_wire()) == (b'{"type":"hello","version":2,"name":"Ana",'
                                         b'"spectate":false,"client":"pokeroulette","token":"t"}\n')
    act = M.Act(id=3, version=12, action={"type": "check", "seat": 1})
    assert P.encode(act.to_wire()) == (b'{"type":"act","version":12,"action":{"type":"check",'
                                       b'"seat":1},"id":3}\n')
    assert P.encode(M.Error("x", id=1).to_wire()) == b'{"type":"error","message":"x","id":1}\n'
    assert M.Error("x", fatal=True).to_wire() == {"type": "error", "message": "x", "fatal": True}


def _play(rounds: int = 2) -> list[dict[str, Any]]:
    """Every message a player and a spectator got at a real (socket-free) table."""
    h = Harness(make_host(RuleSet(suit_order="SHDC"), bots=2))
    ana = h.join("Ana")
    spy = h.join("Spy", spectate=True)
    h.send(ana, {"type": "chat", "text": "hi"})
    h.send(ana, {"type": "ping", "id": 3})
    h.send(spy, {"type": "ping"})
    h.send(ana, {"type": "teleport"})  # an error
    h.send(ana, {"type": "ready", "ready": True})
    ref = 0
    for _ in range(2000):
        h.run()
        state = h.host.table.state
        if state.game_over or state.hand_no > rounds:
            break
        if h.host.table.waiting_for_human() != 0:
            continue
        view = ana.last("state")["view"]
        if view["phase"] == "betting":
            o = view["options"]
            action = {"type": "check"} if o["check"] else {"type": "call"} if o["call"] \
                else {"type": "fold"}
        elif view["phase"] == "cut":
            action = {"type": "cut"}
        elif view["phase"] == "draw":
            action = {"type": "discard", "indices": []}
        else:
            action = {"type": "stock_to_active", "index": None}
        ref += 1
        h.send(ana, {"type": "act", "id": ref, "version": h.host.version, "action": action})
    h.send(ana, {"type": "history", "before": h.host.table.state.hand_no})
    h.send(ana, {"type": "leave"})
    return ana.inbox + spy.inbox


def test_the_hosts_messages_parse_and_encode_again_byte_for_byte():
    """Today's JSON exactly: the host's own messages (the state lines spliced by net/wire.py,
    the commitments of net/commit.py too) parse, and to_wire() gives the same bytes."""
    seen = set()
    for raw in _play():
        msg = M.parse_server(raw)
        assert P.encode(msg.to_wire()) == P.encode(raw), raw["type"]
        seen.add(raw["type"])
    assert seen == set(M.SERVER)


# -- refusals ------------------------------------------------------------------------------------

@pytest.mark.parametrize("msg, why", [
    ({"type": "hello", "version": 1, "name": "Ana"}, "protocol version 2, not 1"),
    ({"type": "hello", "version": 2.0, "name": "Ana"}, "protocol version 2"),
    ({"type": "hello", "version": 2}, "choose a name"),
    ({"type": "hello", "version": 2, "name": "Ana", "spectate": 1}, '"spectate" must be true or false'),
    ({"type": "hello", "version": 2, "name": "Ana", "token": 5}, '"token" must be text'),
    ({"type": "ready", "ready": "yes"}, '"ready" must be true or false'),
    ({"type": "chat"}, '"text" must be text'),
    ({"type": "chat", "text": "\u202e\x1b"}, "empty chat message"),
    ({"type": "chat", "text": "x" * 301}, "chat messages are at most 300 characters"),
    ({"type": "act", "id": "one", "version": 0, "action": {}}, '"id" must be a whole number'),
    ({"type": "act", "id": True, "version": 0, "action": {}}, '"id" must be a whole number'),
    ({"type": "act", "id": -1, "version": 0, "action": {}}, '"id" must be a whole number'),
    ({"type": "act", "id": 1, "action": {}}, '"version" must be a whole number'),
    ({"type": "act", "id": 1, "version": 0}, '"action" must be an object'),
    ({"type": "act", "id": 1, "version": 0, "action": [1]}, '"action" must be an object'),
    ({"type": "act", "id": 1, "version": 0, "action": {"type": "bet", "amount": 10**20}},
     "amount 1000000000000000… is out of range"),
    ({"type": "bots"}, '"count" must be a whole number'),
    ({"type": "bots", "count": 1, "level": None}, '"level" must be text'),
    ({"type": "kick", "seat": "0"}, '"seat" must be a whole number'),
    ({"type": "ping", "id": None}, '"id" must be a whole number'),
    ({"type": "history", "before": "x"}, '"before" must be a whole number'),
    ({"type": "teleport"}, "unknown message type 'teleport'"),
    ({"type": 5}, '"type"'),
])
def test_parse_client_refuses_with_the_hosts_words(msg, why):
    with pytest.raises(P.ProtocolError) as err:
        M.parse_client(msg)
    assert why in err.value.message
    assert err.value.fatal == (msg.get("type") == "hello")  # a bad hello closes the connection


@pytest.mark.parametrize("msg", [
    {"type": "welcome", "version": 2, "name": "Ana", "seat": "0", "token": None,
     "spectator": False, "admin": False, "started": False, "password": False},
    {"type": "welcome", "name": "Ana"},
    {"type": "error"},
    {"type": "error", "message": "x", "fatal": 1},
    {"type": "lobby", "started": False, "you": None, "seats": "none"},
    {"type": "commit", "hand_no": 1, "algorithm": "x", "commitments": "abc"},
    {"type": "state", "version": 1},
    {"type": "state", "version": 1, "view": {}, "events": [1]},
    {"type": "state", "version": 1, "view": {}, "deadline_in": "soon"},
    {"type": "history", "hands": [[1]]},
    {"type": "chat", "seat": None, "name": 5, "text": "hi", "spectator": False},
    {"type": "notice"},
    {"type": "ack", "id": 1},
    {"type": "pong", "id": 1.5},
    {"type": "bye", "reason": None},
    {"type": "frobnicate"},
])
def test_parse_server_refuses_wrong_types_and_missing_fields(msg):
    with pytest.raises(P.ProtocolError):
        M.parse_server(msg)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
FIELDS = ("id", "version", "action", "text", "name", "ready", "count", "level", "seat",
          "before", "spectate", "password", "token", "admin", "client", "type", "amount",
          "view", "events", "hands", "seats", "rules", "message", "commitments")
objects = st.builds(
    lambda kind, fields, extra: {**extra, **fields, "type": kind},
    st.sampled_from(P.CLIENT_TYPES + P.SERVER_TYPES) | st.text(max_size=10) | json_values,
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6),
    st.dictionaries(st.text(max_size=6), json_values, max_size=2))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(objects)
def test_parsing_any_json_object_raises_only_protocol_errors(obj):
    obj = json.loads(json.dumps(obj))  # as decoded from a line
    for parse in (M.parse_client, M.parse_server):
        try:
            msg = parse(obj)
        except P.ProtocolError:
            continue
        assert isinstance(msg.to_wire(), dict)


# -- the client ----------------------------------------------------------------------------------

def test_the_client_ignores_unknown_types_and_skips_bad_known_ones(caplog):
    s = RemoteSession("127.0.0.1", 1, "Ana")
    assert s._handle({"type": "something_new", "x": 1})
    assert s._handle({"type": "lobby", "seats": 3})  # malformed: logged, skipped, said once
    assert s._handle({"type": "lobby", "seats": 4})
    assert not s.lobby and "bad lobby message" in caplog.text
    said = s._lobby_q.get_nowait()
    assert said["type"] == "notice" and "cannot read was ignored" in said["text"]
    assert s._handle({"type": "notice", "text": "hello"})
    assert s._lobby_q.get_nowait() == {"type": "notice", "text": "hello"}  # (not said twice)
    assert not s._handle({"type": "bye", "reason": "the game is over"})
    assert not s._handle({"type": "error", "message": "go away", "fatal": True})


def test_a_malformed_commitment_is_a_warning_not_silence():
    s = RemoteSession("127.0.0.1", 1, "Ana")
    assert s._handle({"type": "commit", "hand_no": 1, "start": 0, "algorithm": "x",
                      "commitments": ["short"]})
    note = s._lobby_q.get_nowait()
    assert note["type"] == "notice" and "malformed deck commitment" in note["text"]


# -- the docs ------------------------------------------------------------------------------------

def _section(text: str, number: int) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## \d+\. )", text, re.DOTALL | re.MULTILINE)
    assert match, f"no section {number} in {DOC}"
    return match.group(0)


def _table_types(section: str) -> set[str]:
    """The first column of every markdown table in ``section`` (header and rules skipped)."""
    out = set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and re.fullmatch(r"`\w+`", cells[0]):
            out.add(cells[0].strip("`"))
    return out


def test_the_classes_match_the_message_tables_of_the_protocol_doc():
    text = DOC.read_text(encoding="utf-8")
    handshake = _section(text, 2)
    client = _table_types(_section(text, 3))
    server_part = _section(text, 4)
    server = _table_types(server_part) | set(re.findall(r"^### `(\w+)`", server_part, re.MULTILINE))
    # the handshake's two messages are shown in §2, as JSON
    assert '{"type": "hello"' in handshake and '{"type": "welcome"' in handshake
    assert client | {"hello"} == set(M.CLIENT)
    assert server | {"welcome"} == set(M.SERVER)
    assert "net/messages.py" in text
