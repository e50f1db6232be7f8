"""Real servers and clients over loopback (port 0): whole games, reconnects, the turn timer,
and a host killed with SIGKILL then resumed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pokeroulette_tui.engine.actions import IllegalAction
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net.client import ConnectError, RemoteSession

from net_helpers import RawClient, Served, autoplay, passive_action

RULES = RuleSet(suit_order="SHDC")
TIMEOUT = 60


async def wait_note(session: RemoteSession, text: str, timeout: float = 10) -> None:
    async def find():
        async for u in session.updates():
            if text in u.note:
                return
            assert not u.closed, u.note
    await asyncio.wait_for(find(), timeout)


async def seated(port: int, names, **kw) -> list[RemoteSession]:
    sessions = []
    for n in names:
        s = RemoteSession("127.0.0.1", port, n, **kw)
        await s.connect()
        sessions.append(s)
    return sessions


@pytest.mark.parametrize("preset", ["classic", "draw"])
async def test_four_clients_play_whole_hands(preset):
    rules = PRESETS[preset].replace(suit_order="SHDC")
    async with Served(rules) as srv:
        sessions = await seated(srv.port, ["Ana", "Bo", "Cy", "Di"])
        assert [s.seat for s in sessions] == [0, 1, 2, 3]
        for s in sessions:
            await s.set_ready(True)
        results = await asyncio.wait_for(
            asyncio.gather(*(autoplay(s, hands=5) for s in sessions)), TIMEOUT)
        state = srv.host.table.state
        assert state.hand_no >= 5 or state.game_over
        for s, updates in zip(sessions, results):
            assert s.verifier.problems == []
            assert any("deck check ✓" in u.note for u in updates)
            v = s.view(s.seat)
            assert v.seat == s.seat and v.players[s.seat].name == s.name
            for i, p in enumerate(v.players):  # nobody else's private cards
                if i != s.seat and not p.shown:
                    assert all(c is None for c, pub in zip(p.stock, p.stock_public) if not pub)
                    assert all(c is None for c in p.hand)
            hist = s.history()
            assert hist and all(e.hand_no for hand in hist for e in hand if e.kind != "suit_order")
        for s in sessions:
            await s.close()


async def test_spectator_watches_public_cards_only():
    async with Served(RULES, bots=2) as srv:
        (ana,) = await seated(srv.port, ["Ana"])
        spy = RemoteSession("127.0.0.1", srv.port, "Spy", spectate=True)
        await spy.connect()
        assert spy.seat is None and spy.local_seats == ()
        await ana.set_ready(True)
        await asyncio.wait_for(asyncio.gather(autoplay(ana, hands=2),
                                              autoplay(spy, hands=2)), TIMEOUT)
        v = spy.view(None)
        assert v.seat is None
        for p in v.players:
            assert all(c is None for c, pub in zip(p.stock, p.stock_public) if not pub) or p.shown
        assert spy.verifier.problems == []
        from pokeroulette_tui.engine.actions import Check, IllegalAction
        with pytest.raises(IllegalAction, match="spectators"):
            await spy.act(Check(seat=0))
        await ana.close()
        await spy.close()


async def test_reconnect_mid_hand_restores_seat_stack_and_view():
    rules = RULES.replace(betting="each_round")
    async with Served(rules) as srv:
        sessions = await seated(srv.port, ["Ana", "Bo", "Cy"], retry_delays=(0.05,) * 40)
        for s in sessions:
            await s.set_ready(True)
        bo = sessions[1]
        # play until it is Bo's turn in hand 1, then cut Bo's wire
        await asyncio.wait_for(asyncio.gather(
            *(autoplay(s, hands=1, stop=lambda v: v.to_act == 1 and not v.dealer_step)
              for s in sessions)), TIMEOUT)
        before = bo.view(1)
        assert before.to_act == 1 and before.hand_no == 1
        assert srv.host.players[1].cid is not None
        bo._writer.transport.abort()  # the network drops
        await wait_note(bo, "reconnecting")
        await wait_note(bo, "Reconnected")
        after = bo.view(1)
        assert after.hand_no == before.hand_no and after.to_act == 1
        assert after.players[1] == before.players[1]  # seat, stack, cards
        assert [p.chips for p in after.players] == [p.chips for p in before.players]
        assert bo.verifier.problems == []
        # and play on to the end of hand 2
        await asyncio.wait_for(asyncio.gather(*(autoplay(s, hands=2) for s in sessions)), TIMEOUT)
        assert srv.host.table.state.hand_no >= 2
        for s in sessions:
            await s.close()


async def test_rejoin_from_a_new_process_with_the_kept_token():
    async with Served(RULES, bots=1) as srv:
        ana, bo = await seated(srv.port, ["Ana", "Bo"], reconnect=False)
        for s in (ana, bo):
            await s.set_ready(True)
        await asyncio.wait_for(asyncio.gather(
            autoplay(ana, hands=1, stop=lambda v: v.hand_no == 1),
            autoplay(bo, hands=1, stop=lambda v: v.hand_no == 1)), TIMEOUT)
        token = bo.token
        await bo.close()
        with pytest.raises(ConnectError, match="join under another name"):
            await RemoteSession("127.0.0.1", srv.port, "Bo").connect()
        again = RemoteSession("127.0.0.1", srv.port, "bo", token=token)
        await again.connect()
        assert again.seat == 1 and again.name == "Bo"
        await again.close()
        await ana.close()


async def test_turn_timer_acts_for_an_absent_player_and_sits_them_out():
    rules = RULES.replace(betting="each_round")
    async with Served(rules, turn_timeout=0.15) as srv:
        ana, bo, cy = await seated(srv.port, ["Ana", "Bo", "Cy"])
        for s in (ana, bo, cy):
            await s.set_ready(True)
        await cy.close()  # Cy walks away: the seat is held and the timer plays it

        seen_deadline = []

        def watch(v):
            return srv.host.away(2) and v.hand_no >= 2

        async def play(s):
            ups = await autoplay(s, hands=50, stop=watch)
            seen_deadline.extend(u.deadline for u in ups if u.deadline is not None)
            return ups

        ups = await asyncio.wait_for(asyncio.gather(play(ana), play(bo)), TIMEOUT)
        notes = [u.note for u in ups[0] if u.note]
        assert any("Time ran out for Cy" in n for n in notes)
        assert any("Cy timed out 3 times and is away" in n for n in notes)
        assert seen_deadline  # the countdown reaches the clients
        assert srv.host.away(2)
        await ana.close()
        await bo.close()


async def test_anyone_may_leave_at_any_time():
    async with Served(RULES, bots=1) as srv:
        ana, bo = await seated(srv.port, ["Ana", "Bo"])
        for s in (ana, bo):
            await s.set_ready(True)
        await asyncio.wait_for(autoplay(ana, hands=1, stop=lambda v: v.hand_no == 1), TIMEOUT)
        await bo.leave()
        await asyncio.wait_for(autoplay(ana, hands=2), TIMEOUT)
        assert srv.host.table.state.seats[1].status == "left"
        with pytest.raises(ConnectError, match="left"):
            await RemoteSession("127.0.0.1", srv.port, "Bo", token=bo.token).connect()
        await ana.close()


async def test_closing_a_client_on_purpose_tells_the_others_the_player_quit():
    async with Served(RULES, bots=1) as srv:
        ana, bo = await seated(srv.port, ["Ana", "Bo"])
        for s in (ana, bo):
            await s.set_ready(True)
        await asyncio.wait_for(autoplay(ana, hands=1, stop=lambda v: v.hand_no == 1), TIMEOUT)
        await bo.close()  # the q key: the seat is held, and the others read "quit"
        notes: list[str] = []

        async def heard() -> None:
            async for update in ana.updates():
                if update.note:
                    notes.append(update.note)
                if any("Bo quit; the seat is held" in n for n in notes):
                    return
                view = ana.view(ana.seat)
                if view.my_turn and not view.dealer_step:
                    with contextlib.suppress(IllegalAction):
                        await ana.act(passive_action(view))

        await asyncio.wait_for(heard(), TIMEOUT)
        assert not any("lost the connection" in n for n in notes)
        assert srv.host.players[1].cid is None and srv.host.table.state.seats[1].status != "left"
        await ana.close()


# -- crash safety ---------------------------------------------------------------------------

def _start_host(args, env):
    proc = subprocess.Popen([sys.executable, "-m", "pokeroulette_tui", "host", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    for _ in range(50):
        line = proc.stdout.readline()
        m = re.search(r"table on 127\.0\.0\.1:(\d+)", line)
        if m:
            return proc, int(m.group(1))
    proc.kill()
    raise AssertionError("the host did not print its address")


async def test_host_killed_with_sigkill_resumes_the_same_hand(tmp_path):
    env = {**os.environ, "POKEROULETTE_HOME": str(tmp_path)}
    save = tmp_path / "table.json"
    common = ["--headless", "--bind", "127.0.0.1", "--port", "0", "--delay", "0",
              "--turn-timeout", "0", "--start-countdown", "0"]  # (TLS, as by default)
    proc, port = _start_host([*common, "--seed", "5", "--save", str(save), "--bots", "1",
                              "--rule", "suit_order=SHDC"], env)
    try:
        clients = [RawClient(n) for n in ("Ana", "Bo")]
        for c in clients:
            await c.connect(port, tls=True)
        for c in clients:
            await c.send({"type": "ready", "ready": True})

        # play until the middle of hand 2, at a human's turn (the host is then idle)
        async def until_turn(c):
            while True:
                m = await c.recv()
                if m["type"] != "state":
                    continue
                v = m["view"]
                if v["hand_no"] >= 2 and v["to_act"] in (0, 1) and not v["dealer_step"] \
                        and v["phase"] == "betting":
                    return m
                a = c.policy(v)
                if a is not None:
                    await c.act(a)

        last = await asyncio.wait_for(asyncio.gather(*(until_turn(c) for c in clients)), TIMEOUT)
        assert last[0]["version"] == last[1]["version"]
        assert stat_mode(save) == 0o600
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    from pokeroulette_tui.engine import journal
    saved = journal.load(save)
    assert len(saved.actions) == last[0]["version"]  # every action was saved before it was sent
    for c in clients:
        await c.close()

    proc, port = _start_host([*common, "--resume", str(save)], env)
    try:
        again = [RawClient(n) for n in ("Ana", "Bo")]
        for c, old in zip(again, clients):
            w = await c.connect(port, tls=True, token=old.token)
            assert w["type"] == "welcome" and w["seat"] == old.seat
            st = await c.recv_until(lambda m: m["type"] == "state")
            before = next(m for m in reversed(old.msgs) if m["type"] == "state")
            assert st["version"] == before["version"]
            assert st["view"] == before["view"]  # same hand, same stacks, same cards
        for c in again:
            action = c.policy(c.msgs[-1]["view"])
            if action is not None:
                await c.act(action)
        # and the game goes on
        await asyncio.wait_for(asyncio.gather(*(c.play(hands=2) for c in again)), TIMEOUT)
        for c in again:
            await c.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def stat_mode(path: Path) -> int:
    import stat
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_the_minimal_client_in_protocol_md_plays(tmp_path):
    """docs/PROTOCOL.md says a client can be written from it alone: its example client plays,
    over TLS, pinning the table's certificate (and refuses another one)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "PROTOCOL.md").read_text()
    code = doc.split("```python")[-1].split("```")[0].replace("asyncio.run(main())", "")
    space: dict = {}
    exec(compile(code, "PROTOCOL.md", "exec"), space)
    async with Served(RULES, bots=2, tls_dir=tmp_path) as srv:
        space["FINGERPRINT"] = "SHA256:not-this-one"
        with pytest.raises(SystemExit, match="not the table's certificate"):
            await space["main"]("127.0.0.1", srv.port, "Doc")
        assert not srv.host.players or all(p.name != "Doc" for p in srv.host.players)
        space["FINGERPRINT"] = srv.fingerprint
        task = asyncio.create_task(space["main"]("127.0.0.1", srv.port, "Doc"))
        for _ in range(400):
            await asyncio.sleep(0.02)
            if srv.host.started and srv.host.table.state.hand_no >= 3:
                break
        assert srv.host.table.state.hand_no >= 3
        assert any(a.seat == 0 for a in srv.host.table.actions)  # the example client acted
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_thinking_bot_never_blocks_the_table():
    """Bots decide in a worker thread: while one thinks, everyone else is still served."""
    import threading

    release = threading.Event()
    thinking = threading.Event()

    class SlowBot:
        level = "slow"
        needs_view = True

        def __init__(self, inner):
            self.inner = inner

        def choose(self, view, legal):
            thinking.set()
            assert release.wait(20)
            return self.inner.choose(view, legal)

    async with Served(RULES, bots=2, bot_level="simple") as srv:
        ana = RawClient("Ana")
        await ana.connect(srv.port)
        spy = RawClient("Spy", spectate=True)
        await spy.connect(srv.port)
        srv.host.config.delay = 0.0
        await ana.send({"type": "ready"})
        await ana.recv_until(lambda m: m["type"] == "state")
        table = srv.host.table
        for seat, bot in list(table.bots.items()):
            table.bots[seat] = SlowBot(bot)
        play = asyncio.create_task(ana.play(hands=2))
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, thinking.wait, 20)
        await spy.send({"type": "ping", "id": 1})      # the loop still answers …
        await spy.recv_until(lambda m: m["type"] == "pong")
        await spy.send({"type": "chat", "text": "still here"})
        await spy.recv_until(lambda m: m["type"] == "chat")
        assert srv.host.driver.thinking        # … while the bot is still thinking
        release.set()
        await asyncio.wait_for(play, TIMEOUT)
        assert table.state.hand_no >= 2 or table.state.game_over
        await ana.close()
        await spy.close()


@pytest.mark.parametrize("allowed", [False, True])
async def test_a_client_shows_hints_only_when_the_host_allows_them(allowed):
    async with Served(RULES, bots=1, allow_hints=allowed) as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana")
        await ana.connect()
        assert ana.hints_allowed is allowed
        await ana.close()
