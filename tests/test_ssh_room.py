"""The card room over real SSH connections on loopback: a key proves the name, the room's
screen, a table opened and played by keys, resize, a dropped connection back at its seat;
and what the room refuses."""

from __future__ import annotations

import asyncio

import pytest

asyncssh = pytest.importorskip("asyncssh")

from pokeroulette_tui.net.ssh.keys import AuthorizedKeys, NameBook
from pokeroulette_tui.net.ssh.server import NO_TERMINAL, Limits
from ssh_helpers import connect, new_key, serve_room, until


def alice_at(served):
    table = served.room.tables[1]
    return next(p for p in table.host.players if p.name == "alice"), table


async def test_open_a_table_play_a_hand_resize_drop_and_come_back(served):
    key = new_key()
    alice = await connect(served.port, "alice", key)
    await alice.wait_for("the card room")
    await alice.wait_for("Welcome, alice")
    alice.press("n")                                   # the table agreement screen
    await alice.wait_for("Table setup")
    alice.press("\x13")                                # ctrl+s: start with these rules
    await alice.wait_for("You lead this table")
    seat, table = alice_at(served)
    assert seat.uid is not None and table.host.players.index(seat) == 0
    assert sum(p.bot is not None for p in table.host.players) == 3  # the bots asked for
    alice.press("r")                                   # ready: the game deals
    await until(lambda: table.host.started)
    await alice.wait_for("Hand 1")
    # play by keys: check or call when it is our turn, Enter through the result
    async def hand_two() -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + 25
        while loop.time() < end:
            state = table.host.table.state
            if state.hand_no >= 2 or state.game_over:
                return True
            alice.press("c")
            await asyncio.sleep(0.1)
            alice.press("\r")
            await asyncio.sleep(0.1)
        return False
    assert await hand_two(), "the first hand never ended"
    # resize: the app follows the client's window
    app = next(iter(served.front.apps))
    alice.chan.change_terminal_size(120, 40)
    await until(lambda: tuple(app.size) == (120, 40))
    # drop: the seat is held, nobody else takes it, and alice comes back to it
    await alice.close()
    await until(lambda: seat.cid is None)
    assert seat in table.host.players
    mallory = await connect(served.port, "mallory", new_key())
    await mallory.wait_for("the card room")
    mallory.press("j")
    await mallory.wait_for("already started")
    assert table.host.players.index(seat) == 0 and seat.name == "alice"
    await mallory.close()
    back = await connect(served.port, "alice", key)
    await back.wait_for("playing")
    back.press("j")
    await until(lambda: seat.cid is not None)
    await back.wait_for("alice (you)")
    await back.close()


async def test_a_claimed_name_refuses_another_key(served):
    first = await connect(served.port, "bob", new_key())
    await first.wait_for("Welcome, bob")
    await first.close()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(served.port, "bob", new_key())
    await asyncio.sleep(0.3)  # (the address's back-off after a failed login)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(served.port, "root", new_key())     # reserved
    assert served.front.book.owner("bob") is not None
    assert served.front.book.owner("root") is None


async def test_watch_needs_no_key_and_takes_no_seat(served):
    key = new_key()
    alice = await connect(served.port, "alice", key)
    await alice.wait_for("Welcome, alice")
    alice.press("n")
    await alice.wait_for("Table setup")
    alice.press("\x13")
    await alice.wait_for("You lead this table")
    watcher = await connect(served.port, "watch")
    await watcher.wait_for("You are watching")
    watcher.press("\r")
    _, table = alice_at(served)
    await until(lambda: served.room.listing()[0]["watching"] == 1)
    assert [p.name for p in table.host.players if p.bot is None] == ["alice"]
    watcher.press("n")                                   # watchers open no tables
    await asyncio.sleep(0.3)
    assert len(served.room.tables) == 1
    await watcher.close()
    await alice.close()


async def test_commands_sftp_and_forwarding_are_refused(served):
    key = new_key()
    conn = await asyncssh.connect("127.0.0.1", served.port, username="carol", client_keys=[key],
                                  known_hosts=None, agent_path=None, config=[])
    try:
        result = await asyncio.wait_for(conn.run("id", check=False), 5)
        assert result.exit_status != 0 and not result.stdout
    except asyncssh.ChannelOpenError:
        pass
    with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
        await asyncio.wait_for(conn.start_sftp_client(), 5)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", served.port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", served.port)
    conn.close()
    await conn.wait_closed()


async def test_a_session_without_a_terminal_gets_one_line(served):
    player = await connect(served.port, "dave", new_key(), term=None)
    await player.wait_for(NO_TERMINAL.strip())
    await asyncio.wait_for(player.chan.wait_closed(), 5)
    assert player.chan.get_exit_status() == 1
    assert not served.front.apps
    await player.close()


async def test_a_flood_of_silent_connections_does_not_keep_a_player_out(tmp_path):
    served = await serve_room(tmp_path, limits=Limits(pending=40, pending_per_address=20,
                                                      login_timeout=5.0))
    socks = []
    try:
        for _ in range(60):  # never say a word: the oldest make way for newer ones
            socks.append(await asyncio.open_connection("127.0.0.1", served.port))
        await asyncio.sleep(0.2)
        assert len(served.front.pending) <= 20
        player = await connect(served.port, "erin", new_key())
        await player.wait_for("Welcome, erin")
        await player.close()
        assert served.front.refused >= 40
    finally:
        for _, w in socks:
            w.close()
        await served.close()


async def test_failed_logins_slow_an_address_down(tmp_path):
    served = await serve_room(tmp_path, limits=Limits(backoff_base=5.0, backoff_cap=5.0))
    try:
        first = await connect(served.port, "fay", new_key())
        await first.wait_for("Welcome, fay")
        await first.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served.port, "fay", new_key())
        await asyncio.sleep(0.1)
        with pytest.raises((asyncssh.DisconnectError, asyncssh.ConnectionLost, OSError)):
            await connect(served.port, "fay", new_key())  # turned away during the back-off
    finally:
        await served.close()


async def test_authorized_keys_map_keys_to_names(tmp_path):
    ana, other = new_key(), new_key()
    listed = tmp_path / "authorized_keys"
    listed.write_text(f'name="ana" {ana.export_public_key().decode().strip()} laptop\n'
                      "garbage line\n")
    book = AuthorizedKeys.load(listed)
    assert book.skipped == ["line 2: not a key"]
    served = await serve_room(tmp_path, book=book)
    try:
        player = await connect(served.port, "ana", ana)
        await player.wait_for("Welcome, ana")
        await player.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served.port, "ana", other)
        await asyncio.sleep(0.3)  # (the address's back-off after a failed login)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served.port, "laptop", ana)  # the option names it, not the comment
    finally:
        await served.close()


def test_names_are_kept_and_limited_per_key(tmp_path):
    path = tmp_path / "names.json"
    book = NameBook.load(path, per_key=2)
    assert book.claim("ann", "K1", 0) == "" and book.claim("Ann", "K1", 0) == ""
    assert "another key" in book.claim("ANN", "K2", 0)
    assert book.claim("ben", "K1", 0) == ""
    assert "claimed 2 names" in book.claim("cat", "K1", 0)
    assert "reserved" in book.claim("admin", "K3", 0)
    again = NameBook.load(path)
    assert again.owner("ann") == "K1" and again.owner("ben") == "K1"
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text("{broken")
    with pytest.raises(Exception, match="move it away"):
        NameBook.load(path)


@pytest.mark.skipif(not __import__("shutil").which("ssh"), reason="no OpenSSH client")
async def test_the_openssh_client_gets_the_room(served, tmp_path):
    key = new_key()
    path = tmp_path / "id_ed25519"
    key.write_private_key(str(path))
    path.chmod(0o600)
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-tt", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
        "-o", "LogLevel=ERROR", "-i", str(path), "-p", str(served.port), "gus@127.0.0.1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    seen = b""
    try:
        while b"Welcome, gus" not in seen.replace(b"\x1b", b""):
            chunk = await asyncio.wait_for(proc.stdout.read(65536), 10)
            assert chunk, (await proc.stderr.read()).decode()
            seen += chunk
        proc.stdin.write(b"q")
        await proc.stdin.drain()
        await asyncio.wait_for(proc.wait(), 10)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert served.front.book.owner("gus") == key.get_fingerprint("sha256")


async def test_the_terminal_follows_the_client(served):
    plain_client = await connect(served.port, "hal", new_key(), term="xterm",
                                 env={"NO_COLOR": "1"})
    await plain_client.wait_for("Welcome, hal")
    app = next(iter(served.front.apps))
    assert app.no_color and app.console.color_system == "standard"
    await plain_client.close()
    await until(lambda: not served.front.apps)
    key = new_key()
    rich_client = await connect(served.port, "ida", key, env={"COLORTERM": "truecolor"})
    await rich_client.wait_for("Welcome, ida")
    app = next(iter(served.front.apps))
    assert not app.no_color and app.console.color_system == "truecolor"
    rich_client.press("t")  # true colour remembered for this name (ssh seldom sends COLORTERM)
    await rich_client.wait_for("True colour")
    await rich_client.close()
    await until(lambda: not served.front.apps)
    again = await connect(served.port, "ida", key)
    await again.wait_for("Welcome, ida")
    app = next(iter(served.front.apps))
    assert app.config.truecolor and app.console.color_system == "truecolor"
    await again.close()


async def test_per_process_sessions_share_the_room_and_keep_their_seats(tmp_path):
    served = await serve_room(tmp_path, per_process=True)
    try:
        key = new_key()
        alice = await connect(served.port, "alice", key)
        await alice.wait_for("Welcome, alice", timeout=30)
        alice.press("n")
        await alice.wait_for("Table setup", timeout=20)
        alice.press("\x13")
        await alice.wait_for("You lead this table", timeout=20)
        seat, table = alice_at(served)                      # the table is in the server
        assert seat.uid == served.room.account("alice").uid
        alice.press("r")
        await until(lambda: table.host.started, timeout=20)
        await alice.wait_for("Hand 1", timeout=20)
        alice.chan.change_terminal_size(120, 40)            # the child's PTY follows
        alice.clear()
        await alice.wait_for("Hand 1", timeout=10)
        await alice.close()
        await until(lambda: seat.cid is None)
        watcher = await connect(served.port, "watch")
        await watcher.wait_for("You are watching", timeout=30)
        watcher.press("\r")
        await until(lambda: served.room.listing()[0]["watching"] == 1, timeout=20)
        assert [p.name for p in table.host.players if p.bot is None] == ["alice"]
        await watcher.close()
        back = await connect(served.port, "alice", key)
        await back.wait_for("Welcome, alice", timeout=30)
        back.press("j")
        await until(lambda: seat.cid is not None, timeout=20)
        assert table.host.players.index(seat) == 0
        await back.close()
    finally:
        await served.close()
