"""A networked tester's findings about hosting: the crash-recovery command brings the table
back as it was (served the same way, with its own settings), a restarted casino table says
so, and the host's words are right (the game's name, a fingerprint as typed, one "the game
starts", no seats "held" while the table is being stopped)."""

from __future__ import annotations

import argparse
import asyncio
import shlex

import pytest
from net_helpers import Harness, make_host

from pokeroulette_tui.cli import CliError, build_parser
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net import launch, serve, tls
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.net.serve import Listen
from pokeroulette_tui.net.server import Server

RULES = RuleSet(suit_order="SHDC")


def host_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def started_table(path, **kw) -> tuple[Harness, list]:
    h = Harness(make_host(RULES, save_path=path, **kw))
    peers = [h.join(n) for n in ("Ana", "Bo", "Cy")]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    assert h.host.started and path.exists()
    return h, peers


# -- 1: the table's own settings are kept in its save ---------------------------------------

def test_a_resumed_table_keeps_its_own_settings(tmp_path):
    path = tmp_path / "table.json"
    h, __ = started_table(path, turn_timeout=30.0, delay=0.2, hand_pause=1.5,
                          bot_level="strong", allow_hints=True, away_after=5)
    h.host.table.close()
    back = TableHost.resume(path, HostConfig())  # a resume that gives none of them
    cfg = back.config
    assert (cfg.turn_timeout, cfg.delay, cfg.hand_pause, cfg.bot_level, cfg.allow_hints,
            cfg.away_after) == (30.0, 0.2, 1.5, "strong", True, 5)
    assert back.driver.pace.turn_timeout == 30.0 and back.driver.pace.delay == 0.2


def test_settings_given_on_the_resume_command_line_win(tmp_path):
    path = tmp_path / "table.json"
    h, __ = started_table(path, turn_timeout=30.0, delay=0.2, hand_pause=1.5)
    h.host.table.close()
    back = TableHost.resume(path, HostConfig(delay=0.0, turn_timeout=90.0),
                            explicit={"delay"})
    assert back.config.delay == 0.0  # given
    assert back.config.turn_timeout == 30.0  # not given: the table's


def test_which_flags_the_command_line_gives():
    args = host_args("--delay", "0.1", "--result-pause", "2", "--allow-hints")
    assert serve.given_settings(args) >= {"delay", "hand_pause", "allow_hints"}
    assert not serve.given_settings(host_args()) & {"delay", "hand_pause", "allow_hints",
                                              "bot_level"}
    args.turn_timeout = None  # "not given" (the flag's default must be None for this)
    assert "turn_timeout" not in serve.given_settings(args)
    assert launch.host_config(args, RuleSet()).turn_timeout == 60.0  # the default applies


def test_make_host_resume_keeps_the_saved_turn_timer_when_not_given(tmp_path):
    path = tmp_path / "table.json"
    h, __ = started_table(path, turn_timeout=30.0, delay=0.25)
    h.host.table.close()
    args = host_args("--resume", str(path), "--headless")
    args.turn_timeout = None  # as `host --resume FILE` gives it once the flag defaults to None
    host = launch.make_host(args, RuleSet(), None)
    assert host.config.turn_timeout == 30.0 and host.config.delay == 0.25
    args = host_args("--resume", str(path), "--headless", "--turn-timeout", "45")
    assert launch.make_host(args, RuleSet(), None).config.turn_timeout == 45.0


# -- 1: the after-a-crash command repeats how the table is served ----------------------------

def crash_line(lines: list[str]) -> list[str]:
    line = next(x for x in lines if "after a crash:" in x)
    return shlex.split(line.split("after a crash:", 1)[1])


def test_the_crash_command_repeats_port_bind_headless_tls_and_password_file(tmp_path):
    pw = tmp_path / "pw"
    pw.write_text("secret\n")
    pw.chmod(0o600)
    save = tmp_path / "saved table.json"
    args = host_args("--headless", "--port", "17934", "--bind", "127.0.0.1", "--no-tls",
                     "--password-file", str(pw), "--save", str(save))
    host = launch.make_host(args, RuleSet(), None, password="secret")
    words = crash_line(launch.banner(host, Listen("127.0.0.1", 17934, tls=False), args))
    assert words[:4] == ["pokeroulette", "host", "--resume", str(save)]
    assert "--headless" in words and "--no-tls" in words
    assert words[words.index("--port") + 1] == "17934"
    assert words[words.index("--bind") + 1] == "127.0.0.1"
    assert words[words.index("--password-file") + 1] == str(pw)
    assert "secret" not in " ".join(words)
    # parsed back, it asks for the same table served the same way
    again = build_parser().parse_args(words[1:])
    assert (again.port, again.bind, again.headless, again.no_tls, again.resume) == \
        (17934, "127.0.0.1", True, True, str(save))


def test_the_crash_command_names_the_port_actually_bound(tmp_path):
    args = host_args("--port", "0", "--save", str(tmp_path / "t.json"))
    host = launch.make_host(args, RuleSet(), None)
    words = crash_line(launch.banner(host, Listen("0.0.0.0", 40123, tls=True), args))
    assert words[words.index("--port") + 1] == "40123"
    assert "--headless" not in words and "--no-tls" not in words and "--bind" not in words


# -- 2: a casino table that was restarted says so --------------------------------------------

async def test_a_casino_client_is_told_when_the_table_was_restarted(tmp_path):
    async def serve_casino(port: int = 0):
        host = CasinoHost(CasinoConfig(seed=3, deal_pause=0.05, result_pause=0.3))
        server = Server(host)
        __, bound = await server.start("127.0.0.1", port)
        return host, server, bound

    async def until(pred, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not pred():
                await asyncio.sleep(0.01)

    host, server, port = await serve_casino()
    ana = RemoteCasino("127.0.0.1", port, "Ana", tls=False)
    ana.retry_delays = [0.05] * 40
    notes: list[str] = []
    try:
        await ana.connect()
        await ana.place(0, "suit", "H", 10)
        await until(lambda: ana.casino.players and ana.casino.players[0].bets)
        crashed = server  # the host dies without a word (kill -9) …
        crashed._server.close()
        for conn in list(crashed.conns.values()):
            conn.writer.transport.abort()
        host, server, __ = await serve_casino(port)  # … and a new table takes the port
        async with asyncio.timeout(10):
            while not any("restarted" in n for n in notes):
                update = await ana._queue.get()
                notes.append(update.note or "")
        said = next(n for n in notes if "restarted" in n)
        assert f"{START_BANKROLL:,}" in said
        # the last word: after the host's news of the (new) seat, which would hide it
        assert any("joined the table" in n for n in notes)
        assert not any("as you left them" in n for n in notes)
        await until(lambda: ana.casino.players and not ana.casino.players[0].bets)
        assert host.casino.players[0].bankroll == START_BANKROLL
        await crashed.close()  # (what is left of it: its listener is gone already)
    finally:
        await ana.close()
        await server.close()


async def test_a_casino_client_back_at_the_same_table_is_not_told_it_restarted(tmp_path):
    host = CasinoHost(CasinoConfig(seed=3))
    server = Server(host)
    __, port = await server.start("127.0.0.1", 0)
    try:
        ana = RemoteCasino("127.0.0.1", port, "Ana", tls=False)
        await ana.connect()
        token = ana.token
        await ana.close()
        again = RemoteCasino("127.0.0.1", port, "Ana", tls=False, token=token)
        await again.connect()
        async with asyncio.timeout(10):
            while not again.casino.players:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        heard = []
        while not again._queue.empty():
            heard.append(again._queue.get_nowait().note or "")
        assert not again.restarted and not any("restarted" in n for n in heard)
        await again.close()
        stale = RemoteCasino("127.0.0.1", port, "Bo", tls=False, token="not-known-here")
        await stale.connect()  # a token kept from an earlier table on this port
        assert stale.restarted
        async with asyncio.timeout(10):
            while "restarted" not in ((await stale._queue.get()).note or ""):
                pass
        await stale.close()
    finally:
        await server.close()


# -- 3: the host's words --------------------------------------------------------------------

def test_a_refused_fingerprint_is_quoted_as_typed():
    real = tls.normal_fingerprint("SHA256:" + "Q" * 42 + "E")
    typed = "SHA256:" + "R" * 42 + "X"  # (base64 would read it back as …U)
    assert tls.normal_fingerprint(typed).endswith("U")
    args = build_parser().parse_args(["join", "10.1.2.3", "--name", "Ana",
                                      "--fingerprint", typed])
    fingerprint, __ = launch.tls_options(args)
    with pytest.raises(tls.PinError) as err:
        tls.check_pin("10.1.2.3:7777", real, expected=fingerprint, known=None)
    assert f"not the {typed} you gave" in str(err.value)
    with pytest.raises(CliError, match="not a certificate fingerprint"):
        launch.tls_options(build_parser().parse_args(
            ["join", "10.1.2.3", "--name", "Ana", "--fingerprint", "SHA256:nope"]))


def test_a_draw_table_banner_names_five_card_draw(tmp_path):
    args = host_args("--headless", "--preset", "draw", "--save", str(tmp_path / "t.json"))
    host = launch.make_host(args, PRESETS["draw"], None)
    lines = launch.banner(host, Listen("127.0.0.1", 7777, tls=True), args)
    assert "five-card draw table" in lines[0] and "Poker Roulette" not in lines[0]
    roulette = launch.make_host(host_args("--headless"), RuleSet(), None)
    assert "Poker Roulette table" in launch.banner(roulette, Listen("127.0.0.1", 7777),
                                                   args)[0]


def test_a_table_being_closed_holds_no_seats(tmp_path):
    h, peers = started_table(tmp_path / "t.json")
    h.host.closing = True  # (serve() says so before the server closes every connection)
    out = h.host.disconnect(peers[1].cid, 1.0)
    assert not out
    h2, peers2 = started_table(tmp_path / "u.json")
    said = [o for o in h2.host.disconnect(peers2[1].cid, 1.0)
            if "seat is held" in str(o.msg) + str(o.data)]
    assert said  # (a connection lost while the table goes on: the seat is held)


def test_a_casino_table_being_closed_holds_no_seats():
    from pokeroulette_tui.net import casino_wire as W
    from pokeroulette_tui.net import protocol as P

    def seated(host: CasinoHost) -> CasinoHost:
        for cid, name in ((1, "Ana"), (2, "Bo")):
            host.connect(cid, 0.0)
            host.receive(cid, P.encode(W.hello(name, password="", token="")), 0.0)
        return host

    going_on = seated(CasinoHost(CasinoConfig(seed=3)))
    assert any("held" in str(o.msg) for o in going_on.disconnect(2, 1.0))
    closing = seated(CasinoHost(CasinoConfig(seed=3)))
    closing.closing = True
    assert closing.disconnect(2, 1.0) == []
