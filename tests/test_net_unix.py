"""Unix-socket tables for real, with the current account: the folder the host makes, the
kernel's word on who is at each end, and squatters who learn nothing."""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import sys

import pytest

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import unix
from pokeroulette_tui.net.client import ConnectError, RemoteSession
from pokeroulette_tui.net.identity import Account, policy
from pokeroulette_tui.net.server import Server

from net_helpers import Served, make_host

pytestmark = pytest.mark.skipif(bool(unix.unsupported()), reason="Linux only (SO_PEERCRED)")

RULES = RuleSet(suit_order="SHDC")
ME = unix.account_of(os.geteuid())
STRANGER_UID = 54321  # no such account: used to plant files "owned by someone else"


@pytest.fixture
def base(tmp_path, monkeypatch):
    """A sticky, world-writable folder standing in for /tmp."""
    b = tmp_path / "run"
    b.mkdir()
    b.chmod(0o1777)
    monkeypatch.setenv(unix.BASE_ENV, str(b))
    return b


def test_the_table_folder_is_created_exclusively_with_its_mode(base):
    d = unix.table_dir(ME.uid)
    assert d.parent == base and d.name == f"pokeroulette-{ME.uid}"
    unix.check_base(base)
    unix.prepare_dir(d, mode=0o750, group=ME.gid)
    st = os.lstat(d)
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o750 and st.st_uid == ME.uid
    unix.prepare_dir(d, mode=0o711)  # our own folder from an earlier run: taken back
    assert stat.S_IMODE(os.lstat(d).st_mode) == 0o711


def test_a_planted_link_or_someone_elses_folder_is_refused(base, tmp_path):
    d = unix.table_dir(ME.uid)
    target = tmp_path / "elsewhere"
    target.mkdir()
    d.symlink_to(target)
    with pytest.raises(unix.UnixError, match="a link or not a folder"):
        unix.prepare_dir(d, mode=0o750)
    assert stat.S_IMODE(os.stat(target).st_mode) != 0o750  # nothing was done through it
    d.unlink()
    d.mkdir()
    os.chown(d, STRANGER_UID, -1)  # a squatter made the folder first
    with pytest.raises(unix.UnixError, match="belongs to uid 54321, not you: someone created it"):
        unix.prepare_dir(d, mode=0o750)


def test_a_base_others_could_rename_in_is_refused(tmp_path):
    open_base = tmp_path / "open"
    open_base.mkdir()
    open_base.chmod(0o777)  # writable by all and not sticky
    with pytest.raises(unix.UnixError, match="not sticky"):
        unix.check_base(open_base)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, STRANGER_UID, -1)
    with pytest.raises(unix.UnixError, match="belongs to uid 54321"):
        unix.check_base(theirs)


def test_a_live_table_is_not_replaced_but_a_stale_socket_is(base):
    d = unix.table_dir(ME.uid)
    unix.prepare_dir(d, mode=0o750)
    path = d / unix.SOCKET_NAME
    live = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    live.bind(str(path))
    live.listen()
    with pytest.raises(unix.UnixError, match="already served"):
        unix.clear_stale(path)
    live.close()  # the socket file stays, nobody listens: a crash's leftover
    unix.clear_stale(path)
    assert not path.exists()


def test_join_targets():
    t = unix.target_for("me")
    assert t.owner.uid == ME.uid and t.path == unix.table_socket(ME.uid)
    with pytest.raises(unix.UnixError, match="no account named"):
        unix.target_for("no-such-user-xyz")


def test_an_explicit_socket_in_a_folder_others_can_write_needs_an_owner(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    with pytest.raises(unix.UnixError, match="--owner"):
        unix.target_at(str(shared / "t.sock"))
    assert unix.target_at(str(shared / "t.sock"), "me").owner.uid == ME.uid
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    assert unix.target_at(str(mine / "t.sock")).owner.uid == ME.uid


class UnixServed:
    """A TableHost served on a Unix socket in the fake base (use ``async with``)."""

    def __init__(self, **kw) -> None:
        creds = kw.pop("credentials", None)
        accounts = kw.pop("accounts", None)
        kw.setdefault("access", policy(ME, group_name="test"))
        kw.setdefault("owner_uid", ME.uid)
        kw.setdefault("headless", False)
        self.host = make_host(RULES, **kw)
        self.server = Server(self.host, credentials=creds, accounts=accounts)
        self.path = unix.table_socket(ME.uid)

    async def __aenter__(self) -> "UnixServed":
        unix.prepare_dir(self.path.parent, mode=0o750, group=ME.gid)
        await self.server.start_unix(self.path, mode=0o660, group=ME.gid)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.server.close()


async def test_a_real_unix_table_knows_the_account_and_needs_nothing_else(base):
    async with UnixServed() as srv:
        st = os.lstat(srv.path)
        assert stat.S_ISSOCK(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o660
        session = RemoteSession("", 0, "Anything", unix=unix.target_for("me"))
        welcome = await session.connect()
        assert welcome["account"] == ME.login and welcome["name"] == ME.seat_name()
        assert welcome["token"] is None and welcome["admin"] is True
        assert session.address.startswith(f"{ME.login}'s table")
        await session.close()
        # it comes back to the same seat, with no token
        again = RemoteSession("", 0, "Other", unix=unix.target_for("me"))
        w2 = await again.connect()
        assert w2["seat"] == 0 and len(srv.host.players) == 1
        await again.close()
    assert not srv.path.exists()  # the server removed its socket


async def test_the_server_side_credentials_decide_who_sits_down(base):
    mallory = Account(1003, "mallory", 4242)
    async with UnixServed(credentials=lambda sock: (1, 1003, 4242),
                          accounts=lambda uid: mallory) as srv:
        session = RemoteSession("", 0, "x", unix=unix.target_for("me"), reconnect=False)
        with pytest.raises(ConnectError, match="members of group test only.*--allow mallory"):
            await session.connect()
        assert not srv.host.players


async def test_a_squatter_learns_nothing(base):
    """The socket and its folder look like alice's, but the kernel says root listens: the
    client refuses before sending a byte."""
    alice = Account(STRANGER_UID, "alice")
    async with UnixServed() as srv:
        os.chown(srv.path.parent, STRANGER_UID, -1)
        os.chown(srv.path, STRANGER_UID, -1)
        got: list[bytes] = []
        orig = srv.host.receive
        srv.host.receive = lambda cid, line, now: got.append(line) or orig(cid, line, now)
        session = RemoteSession("", 0, "alice", unix=unix.Target(srv.path, alice),
                                reconnect=False)
        with pytest.raises(ConnectError, match=rf"served by {ME.login}, not alice: someone else "
                                               r"is squatting it; nothing was sent"):
            await session.connect()
        await asyncio.sleep(0.2)
        assert got == [] and not srv.host.players
    # with the folder owned by someone else, the client does not even connect
    d = unix.table_dir(ME.uid)
    os.chown(d, ME.uid, -1)
    with pytest.raises(unix.UnixError, match=rf"belongs to {ME.login}, not alice"):
        unix.check_target(unix.Target(d / unix.SOCKET_NAME, alice))


async def test_nobody_home_is_said_plainly(base):
    session = RemoteSession("", 0, "x", unix=unix.target_for("me"), reconnect=False)
    with pytest.raises(ConnectError, match="is not hosting a table"):
        await session.connect()
    d = unix.table_dir(ME.uid)
    unix.prepare_dir(d, mode=0o750)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(d / unix.SOCKET_NAME))
    s.close()  # a crash's leftover
    with pytest.raises(ConnectError, match="is not running"):
        await session.connect()


def test_unsupported_platforms_are_told(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert "need Linux" in unix.unsupported() and "darwin" in unix.unsupported()


async def test_tcp_on_this_machine_pins_the_serving_account():
    """After a crash, another account could listen on the same port: the client checks who
    serves the port (the first connection pins it) before it sends password or token."""
    async with Served(RULES, password="pw") as srv:
        got: list[bytes] = []
        orig = srv.host.receive
        srv.host.receive = lambda cid, line, now: got.append(line) or orig(cid, line, now)
        session = RemoteSession("127.0.0.1", srv.port, "Ana", password="pw", reconnect=False)
        await session.connect()
        assert session.server_uid == os.geteuid() and len(got) == 1
        await session.close()  # (its last word: "quit")
        heard = len(got)
        # as if the table were now served by another account
        session2 = RemoteSession("127.0.0.1", srv.port, "Ana", password="pw", reconnect=False,
                                 server_uid=STRANGER_UID)
        with pytest.raises(ConnectError, match=rf"now served by {ME.login}, not uid54321: "
                                               r"someone else took the port; your password"):
            await session2.connect()
        await asyncio.sleep(0.1)
        assert len(got) == heard  # nothing more reached the server


async def test_the_client_waits_for_a_restarted_table_and_takes_its_seat_back(base):
    srv = UnixServed(headless=True)
    await srv.__aenter__()
    session = RemoteSession("", 0, "x", unix=unix.target_for("me"),
                            retry_delays=(0.1,) * 40)
    await session.connect()
    srv.server._server.close()  # the table crashes: no goodbye, a stale socket file is left …
    for conn in list(srv.server.conns.values()):
        conn.writer.transport.abort()
    await asyncio.sleep(0.5)
    assert not session.connected and srv.path.exists()
    srv2 = UnixServed(headless=True)  # … and comes back at the same place
    await srv2.__aenter__()
    try:
        for _ in range(100):
            if session.connected and srv2.host.players:
                break
            await asyncio.sleep(0.05)
        assert session.connected and srv2.host.players[0].uid == ME.uid
        notes = []
        while not session._lobby_q.empty():
            notes.append(session._lobby_q.get_nowait())
        assert any("Reconnected" in str(m.get("text", "")) for m in notes)
    finally:
        await session.close()
        await srv2.server.close()
        await srv.server.close()


async def test_join_at_me_builds_a_verified_session(base):
    from pokeroulette_tui.cli import build_parser
    from pokeroulette_tui.net import launch
    async with UnixServed():
        session, info = launch.join_session(build_parser().parse_args(["join", "@me"]))
        assert session.unix is not None and session.unix.owner.uid == ME.uid
        assert info == [f"Joining {ME.login}'s table ({unix.table_socket(ME.uid)}) as {ME.login}"]
        w = await session.connect()
        assert w["account"] == ME.login
        await session.close()
        spectator, _ = launch.join_session(build_parser().parse_args(["join", "@me",
                                                                      "--spectate"]))
        assert spectator.spectate
