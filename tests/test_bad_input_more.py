"""Bad input, second round (a QA review): a save path that can never be written, a home
folder that cannot be made, bytes that are not UTF-8 on the command line, NaN for a number,
casino names that would forge the terminal, and protocol fields of the wrong type. Each is
one clear line (status 2) or one error message, and nothing is lost or half done."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokeroulette_tui import cli
from pokeroulette_tui.engine.folders import ForeignFolderError, private_dir
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import launch
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.client import ConnectError, parse_address
from pokeroulette_tui.net.files import PASSWORD_ENV, read_password

from net_helpers import Harness, make_host
from net_helpers import passive_wire as passive

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
UNMAKEABLE = Path("/proc/pokeroulette-qa")  # mkdir there fails for every account, root too


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("POKEROULETTE_SOCKETS", str(tmp_path))
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    return tmp_path / "home"


@pytest.fixture
def nothing_served(monkeypatch):
    """A table that would be served (in the foreground or in a process of its own) fails
    the test instead: every mistake here must be told before listening."""
    def refuse(*args, **kw):
        raise AssertionError("the table was served despite the mistake")

    import pokeroulette_tui.net.serve as serve_module

    monkeypatch.setattr(launch, "serve", refuse)
    monkeypatch.setattr(launch, "spawn_server", refuse)
    monkeypatch.setattr(serve_module, "serve", refuse)  # (the casino host's, looked up there)


def one_line(capsys, argv: list[str], *words: str) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokeroulette: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err
    return err


# -- 1. --save where no save can ever be written --------------------------------------------

@pytest.mark.parametrize("extra", [["--headless"], ["--headless", "--detach"], []],
                         ids=["headless", "detached", "with-the-screen"])
def test_a_save_path_that_is_a_folder_is_refused_before_listening(extra, home, tmp_path,
                                                                     capsys, nothing_served):
    folder = tmp_path / "saves"
    folder.mkdir()
    one_line(capsys, ["host", "--no-tls", "--port", "0", "--save", str(folder), *extra],
             f"--save {folder} is a folder", str(folder / "table.json"))
    assert list(folder.iterdir()) == []


def test_a_save_path_in_a_missing_folder_is_refused(home, tmp_path, capsys, nothing_served):
    target = tmp_path / "no-such" / "table.json"
    one_line(capsys, ["host", "--headless", "--no-tls", "--port", "0", "--save", str(target)],
             f"the folder {target.parent} does not exist")
    assert not target.parent.exists()  # not made behind the user's back either


def test_save_paths_the_table_could_never_write(tmp_path):
    from pokeroulette_tui.net.files import check_save_path

    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(CliError, match="is not a folder"):
        check_save_path(afile / "table.json")
    with pytest.raises(CliError, match="is not a regular file"):
        check_save_path(Path(os.devnull))
    good = tmp_path / "table.json"
    assert check_save_path(good) == good  # a new file in a folder of ours: fine
    good.write_text("{}")
    assert check_save_path(good) == good  # and one there already (it is replaced)


@pytest.mark.skipif(ROOT or not hasattr(os, "geteuid"), reason="root writes anywhere")
def test_a_save_path_in_a_read_only_folder_is_refused(home, tmp_path, capsys, nothing_served):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        one_line(capsys, ["host", "--headless", "--no-tls", "--port", "0",
                          "--save", str(folder / "t.json")], "cannot write there")
    finally:
        folder.chmod(0o700)


# -- 2. a POKEROULETTE_HOME that cannot be made ----------------------------------------------

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")


@needs_proc
def test_a_folder_that_cannot_be_made_is_refused_in_words():
    with pytest.raises(ForeignFolderError, match="cannot be made") as caught:
        private_dir(UNMAKEABLE / "data")
    message = str(caught.value)
    assert "POKEROULETTE_HOME" in message and "\n" not in message


@needs_proc
@pytest.mark.parametrize("argv", [
    ["host", "--headless", "--port", "0"],
    ["host", "--headless", "--port", "0", "--detach"],
    ["host", "--unix", "--headless"],
    ["join", "127.0.0.1:1", "--name", "Bo", "--no-tls"],
], ids=["host", "detached", "unix", "join"])
def test_commands_with_an_unusable_home_say_so_in_one_line(argv, home, capsys, monkeypatch,
                                                           nothing_served):
    monkeypatch.setenv("POKEROULETTE_HOME", str(UNMAKEABLE))
    one_line(capsys, argv, f"not using {UNMAKEABLE}", "POKEROULETTE_HOME")


@needs_proc
def test_serve_ssh_with_an_unusable_home_says_so_in_one_line(home, capsys, monkeypatch):
    from pokeroulette_tui.ui.sshroom import missing

    if missing():
        pytest.skip("asyncssh is not installed")
    monkeypatch.setenv("POKEROULETTE_HOME", str(UNMAKEABLE))
    one_line(capsys, ["serve-ssh", "--port", "0"], f"not using {UNMAKEABLE}")


@needs_proc
def test_an_unusable_home_is_no_traceback_from_a_real_process(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "host", "--headless",
                           "--port", "0"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "POKEROULETTE_HOME": str(UNMAKEABLE)})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Press Ctrl-C" not in done.stdout


# -- 3. addresses that are not UTF-8, or no host name at all ---------------------------------

@pytest.mark.parametrize("bind", ["\udcff", "a..b", "evil\x1b[2J"])
@pytest.mark.parametrize("casino", [False, True])
def test_a_bind_address_that_is_no_address_is_refused(bind, casino, home, capsys,
                                                      nothing_served):
    argv = ["host", "--bind", bind, "--headless", "--port", "0", "--no-tls"]
    one_line(capsys, argv + (["--casino"] if casino else []), "--bind:",
             "is not a host name or an address")


@pytest.mark.parametrize("bind", ["\udcff", "a..b"])
def test_the_card_rooms_bind_address_is_checked_too(bind, home, capsys):
    pytest.importorskip("asyncssh")
    one_line(capsys, ["serve-ssh", "--bind", bind, "--port", "0"], "--bind:",
             "is not a host name or an address")


@pytest.mark.parametrize("address", ["\udcff", "\udcff:7777", "a..b", "x" * 70 + ".org"])
def test_a_join_address_that_is_no_host_name_is_refused(address, home, capsys):
    one_line(capsys, ["join", address, "--name", "Bo"], "is not a host name or an address")
    with pytest.raises(ConnectError):
        parse_address(address)


def test_reachable_says_a_bad_host_name_in_words():
    from pokeroulette_tui.ui.netplay import reachable

    assert "there is no machine called" in reachable("a..b", 7777, timeout=1)


# -- 4. NaN and infinity are no number of seconds ---------------------------------------------

@pytest.mark.parametrize("flag", ["--turn-timeout", "--delay", "--result-pause",
                                  "--start-countdown", "--lobby-timeout"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_nan_and_infinity_are_refused_for_every_host_number(flag, value, home, capsys,
                                                            nothing_served):
    one_line(capsys, ["host", "--headless", "--no-tls", "--port", "0", f"{flag}={value}"],
             f"{flag} must be between")


# -- 5. casino names --------------------------------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ("", "1 to 24 characters"),
    ("   ", "1 to 24 characters"),
    ("a" * 100_000, "1 to 24 characters"),
    ("\udcff", "not UTF-8"),
    ("\x1b[2J", "control characters"),
    ("Bo\u202e", "control characters"),
], ids=["empty", "spaces", "huge", "not-utf8", "escape", "bidi"])
def test_reset_bankroll_checks_the_name_and_stores_nothing(name, words, home, capsys):
    err = one_line(capsys, ["casino", "--reset-bankroll", name], "--reset-bankroll:", words)
    assert "\x1b" not in err and len(err) < 300
    assert not (home / "data" / "casino.json").exists()


def test_reset_bankroll_keeps_the_name_as_the_table_spells_it(home, capsys):
    from pokeroulette_tui.engine.casino.store import CasinoStore

    assert cli.main(["casino", "--reset-bankroll", "  Ada "]) == 0
    assert capsys.readouterr().out.startswith("Ada has a fresh bankroll")
    store = CasinoStore.open(home / "data" / "casino.json")
    assert store.bankroll("Ada") > 0 and "  Ada " not in store.path.read_text(encoding="utf-8")


def test_casino_names_at_the_table_are_checked_the_same_way(home, capsys, monkeypatch):
    import pokeroulette_tui.ui.casino as casino_ui

    monkeypatch.setattr(casino_ui, "run_casino", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("the casino screen opened")))
    one_line(capsys, ["casino", "Ana", "\x1b[31mBo"], "control characters")


# -- 6. the protocol: types, ids, passwords ---------------------------------------------------

def test_an_act_whose_seat_is_not_a_number_is_refused():
    for seat in (True, False, 1.0, "1", [1]):
        with pytest.raises(P.ProtocolError, match="seat must be a whole number"):
            M.Act.parse({"type": "act", "id": 1, "version": 0,
                         "action": {"type": "check", "seat": seat}})
    assert M.Act.parse({"type": "act", "id": 1, "version": 0,
                        "action": {"type": "check", "seat": 2}}).action["seat"] == 2


def test_seat_true_is_not_seat_one_at_the_table():
    h = Harness(make_host())
    peers = [h.join(n) for n in ("P0", "P1", "P2")]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    ids = 0
    for _ in range(500):  # play on (passively) until seat 1 is to act
        h.run()
        seat = h.host.table.waiting_for_human()
        if seat == 1:
            break
        if seat is None:
            continue
        mover = next(p for p in peers if p.seat == seat)
        ids += 1
        h.send(mover, {"type": "act", "id": ids, "version": h.host.version,
                       "action": passive(mover.last("state")["view"])})
    else:
        raise AssertionError("seat 1 never got a turn")
    one = next(p for p in peers if p.seat == 1)
    before, version = h.host.table.state.to_dict(), h.host.version
    action = {**passive(one.last("state")["view"]), "seat": True}
    h.send(one, {"type": "act", "id": 9000, "version": version, "action": action})
    error = one.last("error")
    assert "seat must be a whole number" in error["message"] and error["id"] == 9000
    assert h.host.version == version and h.host.table.state.to_dict() == before
    assert not one.closed


@pytest.mark.parametrize("msg, words", [
    ({"type": "bet", "id": 7, "kind": "card", "target": "As", "amount": 0}, '"amount"'),
    ({"type": "bet", "id": 7, "kind": 5, "target": "As", "amount": 5}, '"kind"'),
    ({"type": "bet", "id": 7, "kind": "card", "target": "As", "amount": True}, '"amount"'),
    ({"type": "ready", "id": 7, "ready": "yes"}, '"ready"'),
])
def test_casino_field_errors_carry_the_request_id(msg, words):
    from test_net_casino import Harness as CasinoHarness

    h = CasinoHarness()
    ana = h.join("Ana")
    h.send(ana, msg)
    error = ana.of("error")[-1]
    assert words in error["message"] and error.get("id") == 7, error
    assert not ana.closed


def test_a_password_that_is_not_utf8_is_refused_before_anything_is_sent():
    args = argparse.Namespace(password=None, password_file=None)
    with pytest.raises(CliError, match=f"{PASSWORD_ENV} is not UTF-8"):
        read_password(args, env={PASSWORD_ENV: "pass\udcffword"})
    with pytest.raises(CliError, match="not UTF-8"):
        read_password(argparse.Namespace(password=True, password_file=None),
                      ask=lambda prompt: "\udcff")
    assert read_password(args, env={PASSWORD_ENV: "sälasana"}) == "sälasana"


@pytest.mark.parametrize("argv", [
    ["join", "127.0.0.1:1", "--name", "Bo", "--no-tls"],
    ["host", "--headless", "--no-tls", "--port", "0"],
    ["host", "--headless", "--no-tls", "--port", "0", "--casino"],
])
def test_commands_refuse_a_password_that_is_not_utf8_in_one_line(argv, home, capsys,
                                                                 monkeypatch, nothing_served):
    import pokeroulette_tui.net.client as client

    monkeypatch.setattr(client.RemoteSession, "__init__", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("a session was made")))
    monkeypatch.setenv(PASSWORD_ENV, "\udcff")
    err = one_line(capsys, argv, "not UTF-8")
    assert "did not answer" not in err
