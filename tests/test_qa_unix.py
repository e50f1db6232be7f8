"""QA findings on "Several accounts on one shared machine": ``host --unix PATH`` never
deletes what is not a stale socket of ours, never changes a folder the user chose; a
replaced connection is not "the table has closed"; messages that read right."""

from __future__ import annotations

import argparse
import os
import socket
import stat
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import serve, unix
from pokeroulette_tui.net.identity import policy

pytestmark_unix = pytest.mark.skipif(bool(unix.unsupported()), reason="Linux only")

ME = unix.account_of(os.geteuid())
STRANGER_UID = 54321


def _listen(path: Path, access=None, allow=None):
    args = argparse.Namespace(unix=str(path), allow=allow)
    host = SimpleNamespace(config=SimpleNamespace(
        access=access or policy(ME, group_name=unix.group_name(ME.gid))))
    return serve.listen_for(args, host)


# -- 1: only a stale socket of ours is ever removed ---------------------------------------

@pytestmark_unix
def test_host_unix_on_a_plain_file_refuses_and_keeps_it(tmp_path):
    precious = tmp_path / "important.txt"
    precious.write_text("precious\n")
    with pytest.raises(CliError) as info:
        _listen(precious)
    assert str(info.value) == f"{precious} exists and is not a socket: pick another path or " \
        "remove it"
    assert precious.read_text() == "precious\n"


@pytestmark_unix
def test_clear_stale_never_removes_links_folders_or_files(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("x")
    link = tmp_path / "link.sock"
    link.symlink_to(target)
    folder = tmp_path / "folder.sock"
    folder.mkdir()
    for path in (target, link, folder):
        with pytest.raises(unix.UnixError, match="is not a socket"):
            unix.clear_stale(path)
    assert link.is_symlink() and target.read_text() == "x" and folder.is_dir()
    dangling = tmp_path / "dangling.sock"
    dangling.symlink_to(tmp_path / "nothing")
    with pytest.raises(unix.UnixError, match="is not a socket"):
        unix.clear_stale(dangling)
    assert dangling.is_symlink()


@pytestmark_unix
def test_a_stale_socket_of_ours_goes_but_another_accounts_stays(tmp_path):
    path = tmp_path / "t.sock"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(path))
    s.close()  # nobody listens
    os.chown(path, STRANGER_UID, -1)
    with pytest.raises(unix.UnixError, match="not yours"):
        unix.clear_stale(path)
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    os.chown(path, ME.uid, -1)
    unix.clear_stale(path)
    assert not os.path.lexists(path)


# -- 2: a folder the user chose is never changed ------------------------------------------

@pytestmark_unix
@pytest.mark.parametrize("mode", [0o755, 0o700, 0o1777])
def test_a_chosen_folder_keeps_its_mode_and_group(tmp_path, mode, capsys):
    folder = tmp_path / "chosen"
    folder.mkdir()
    folder.chmod(mode)
    os.chown(folder, -1, 4321)
    before = os.stat(folder)
    where = _listen(folder / "t.sock")
    after = os.stat(folder)
    assert (after.st_mode, after.st_gid, after.st_uid) == \
        (before.st_mode, before.st_gid, before.st_uid)
    assert where.unix == folder / "t.sock"
    assert stat.S_IMODE(after.st_mode) == mode & 0o7777


@pytestmark_unix
def test_a_chosen_shared_folder_of_someone_else_is_fine(tmp_path):
    shared = tmp_path / "shared"  # like /tmp: root's (here: a stranger's), 1777
    shared.mkdir()
    shared.chmod(0o1777)
    os.chown(shared, STRANGER_UID, -1)
    where = _listen(shared / "qassh_t.sock")  # the old code: "belongs to uid 54321, not you"
    assert where.unix == shared / "qassh_t.sock"
    st = os.stat(shared)
    assert stat.S_IMODE(st.st_mode) == 0o1777 and st.st_uid == STRANGER_UID


@pytestmark_unix
def test_the_programs_own_folder_is_still_made_and_checked(tmp_path, monkeypatch):
    base = tmp_path / "run"
    base.mkdir()
    base.chmod(0o1777)
    monkeypatch.setenv(unix.BASE_ENV, str(base))
    own = unix.table_dir(ME.uid)
    own.mkdir()
    os.chown(own, STRANGER_UID, -1)
    with pytest.raises(CliError, match="not you: someone created it first"):
        _listen(own / unix.SOCKET_NAME)
    os.chown(own, ME.uid, -1)
    own.chmod(0o755)
    _listen(own / unix.SOCKET_NAME)
    assert stat.S_IMODE(os.stat(own).st_mode) == 0o750


@pytestmark_unix
def test_a_folder_that_keeps_players_out_is_said_not_changed(capsys):
    nobody = unix.account_named("nobody")
    access = policy(ME, allow=[nobody])
    top = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        top.chmod(0o700)
        where = _listen(top / "t.sock", access=access, allow="nobody")
        err = capsys.readouterr().err
        assert where.unix == top / "t.sock"
        assert "nobody cannot reach the table" in err and str(top) in err and "700" in err
        assert err.count("\n") == 1
        assert stat.S_IMODE(os.stat(top).st_mode) == 0o700  # left as it is
        top.chmod(0o755)
        _listen(top / "t.sock", access=access, allow="nobody")
        assert capsys.readouterr().err == ""
        assert unix.can_pass(top, nobody) is None
    finally:
        os.rmdir(top)


# -- 3: a replaced connection is not "the table has closed" --------------------------------

async def _ended(session, timeout: float = 5.0) -> None:
    import asyncio
    for __ in range(int(timeout / 0.02)):
        if session._closed:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the session did not end")


async def test_a_replaced_connection_is_not_a_closed_table():
    from net_helpers import Served

    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.client import RemoteSession

    async with Served(RuleSet(suit_order="SHDC")) as srv:
        old = RemoteSession("127.0.0.1", srv.port, "Ana")
        await old.connect()
        new = RemoteSession("127.0.0.1", srv.port, "Ana", token=old.token)
        await new.connect()
        await _ended(old)
        assert "replaced by a new connection" in old.link_note
        assert old.table_closed is False  # the table goes on: no "The table has closed."
        await srv.server.close()  # the host stops the table: that one is a closed table
        await _ended(new)
        assert new.table_closed is True
        await new.close()
        await old.close()


# -- 3 and 4 on screen: the disconnect line is whole, and no false "table has closed" -------

LONG = ("Disconnected (could not reconnect: 127.0.0.1:27771 is now served by qassh_x, not "
        "qassh_a: someone else took the port; your password and token were not sent): press q "
        "to quit")


async def test_the_disconnect_line_wraps_and_a_replaced_seat_is_no_closed_table():
    from ui_pilot import app_for, fake_at_turn, screen_text, step

    from pokeroulette_tui.engine.rules import PRESETS
    from pokeroulette_tui.session import Update
    from pokeroulette_tui.ui.screens.table import LinkLine

    session = fake_at_turn(PRESETS["classic"], [("Ana", None), ("Bo", "random"),
                                                ("Cy", "random")], 4)
    app = app_for(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        session.connected = False
        session.link_note = LONG
        session.table_closed = False  # replaced, not ended by the host
        session.push(Update(note="", closed=True))
        await step(pilot)
        text = " ".join(screen_text(app).split())
        assert "press q to quit" in text and "your password and token were not sent" in text
        assert app.screen.query_one(LinkLine).size.height >= 2
        assert app.session is session
        assert "The table has closed." not in [n.message for n in app._notifications]


# -- 5: messages that read right ----------------------------------------------------------

def test_a_certificate_refusal_is_one_sentence(monkeypatch):
    from pokeroulette_tui.net import tls
    from pokeroulette_tui.net.client import RemoteSession

    def refuse(*a, **k):
        raise tls.PinError("the table at 127.0.0.1:27771 presents a different certificate: "
                           "remove the line for 127.0.0.1:27771 from /h/known_tables.")
    monkeypatch.setattr(tls, "peer_fingerprint", lambda ssl_object: "SHA256:x")
    monkeypatch.setattr(tls, "check_pin", refuse)
    session = RemoteSession("127.0.0.1", 27771, "Ana", tls=True)
    said = session._check_certificate(SimpleNamespace(get_extra_info=lambda key: None))
    assert said.endswith("from /h/known_tables; your password and token were not sent")
    assert ".;" not in said


def test_the_too_small_notice_promises_no_save_for_a_table_served_elsewhere():
    from pokeroulette_tui.net.client import RemoteSession
    from pokeroulette_tui.ui.widgets.toosmall import served_elsewhere, too_small_text

    assert served_elsewhere(RemoteSession("127.0.0.1", 1, "Ana"))
    assert not served_elsewhere(None)
    remote = too_small_text(40, 12, remote=True).plain
    assert "saved" not in remote and remote.endswith("q quit (the table goes on)")
    assert too_small_text(40, 12).plain.endswith("(the game is saved)")


# -- 6: look-alike names ------------------------------------------------------------------

@pytest.mark.parametrize("other", ["aIice", "al1ce", "AL1CE", "a|ice", "alıce", "аlice"])
def test_names_with_upright_strokes_are_one_name(other):
    from pokeroulette_tui.net import protocol as P
    assert P.same_name("alice", other)


def test_upright_strokes_do_not_make_unlike_names_one():
    from pokeroulette_tui.net import protocol as P
    for a, b in [("alice", "bob"), ("alice", "alce"), ("Ana", "Anna"), ("Bo", "Bob"),
                 ("lia", "lila"), ("Eli", "Elin")]:
        assert not P.same_name(a, b), (a, b)
    # a decision, since case never counts: "Ida" is "ida" and reads as "lda": one name
    assert P.same_name("Ida", "lda") and P.same_name("Bo0", "boo")


# -- 7: a hosting banner leaves the chat in view at 80x24 ---------------------------------

async def test_the_lobby_chat_stays_in_view_under_a_long_banner():
    from net_helpers import Served
    from ui_pilot import screen_text

    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.client import RemoteSession
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen

    banner = ["Hosting a Poker Roulette table on this machine for you and your group"] + \
        [f"  banner line {n}" for n in range(2, 10)]
    async with Served(RuleSet(suit_order="SHDC")) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=banner)
        async with app.run_test(size=(80, 24)) as pilot:
            for __ in range(200):
                await pilot.pause(0.02)
                if isinstance(app.screen, LobbyScreen) and app.screen.lobby:
                    break
            app.screen.query_one("#lobby-chat").write("Bo: anyone for a game?")
            await pilot.pause(0.1)
            chat = app.screen.query_one("#lobby-chat")
            assert chat.region.bottom <= 24 - 1 and chat.region.height >= 3
            assert "anyone for a game?" in screen_text(app)
            assert "Hosting a Poker Roulette table" in screen_text(app)
        await session.close()


def test_room_names_claimed_before_the_look_alike_change_are_found_again(tmp_path):
    """names.json filed 'alice' under the older name key; read now, the claim is filed under
    today's, so another key cannot take 'alice' (or 'aIice'); of two claims that read alike
    now, the older keeps the name."""
    import json

    from pokeroulette_tui.net.ssh.keys import NameBook

    path = tmp_path / "names.json"
    path.write_text(json.dumps({"names": {
        "alice": {"name": "alice", "key": "SHA256:first", "at": 100},
        "aiice": {"name": "aIice", "key": "SHA256:later", "at": 200},
        "bob": {"name": "bob", "key": "SHA256:bob", "at": 150}}}), encoding="utf-8")
    book = NameBook.load(path)
    assert book.owner("alice") == book.owner("aIice") == "SHA256:first"
    assert book.owner("bob") == "SHA256:bob"
    assert not book.may_use("alice", "SHA256:thief") and book.may_use("alice", "SHA256:first")
