"""The host/join command-line glue: flags, passwords, the kept resume tokens, private files."""

from __future__ import annotations

import argparse
import os
import stat

import pytest

from pokeroulette_tui.cli import CliError, build_parser
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import launch
from pokeroulette_tui.ui import netplay

def host_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])

def test_host_flags_become_a_config():
    cfg = launch.host_config(host_args("--headless", "--turn-timeout", "20", "--bots", "2",
                                       "--delay", "0", "--seed", "4", "--result-pause", "2.5"),
                             RuleSet(), "pw")
    assert cfg.headless and cfg.turn_timeout == 20 and cfg.bots == 2 and cfg.delay == 0
    assert cfg.seed == 4 and cfg.password == "pw" and cfg.hand_pause == 2.5
    assert launch.host_config(host_args(), RuleSet()).hand_pause == 4.0  # the default pause
    assert not launch.host_config(host_args(), RuleSet()).allow_hints
    assert launch.host_config(host_args("--allow-hints"), RuleSet()).allow_hints
    for bad in (["--port", "70000"], ["--turn-timeout", "-1"], ["--bots", "40"],
                ["--bot-level", "genius"], ["--delay", "99"], ["--result-pause", "-1"]):
        with pytest.raises(CliError):
            launch.host_config(host_args(*bad), RuleSet())

def test_a_password_on_the_command_line_is_refused():
    for argv in (["--password", "hunter2"], ["--password=hunter2"]):
        with pytest.raises(CliError, match="takes no value.*ps"):
            launch.read_password(host_args(*argv), env={})

def test_the_password_comes_from_a_prompt_a_private_file_or_the_environment(tmp_path):
    assert launch.read_password(host_args(), env={}) is None
    assert launch.read_password(host_args(), env={"POKEROULETTE_PASSWORD": "env-pw"}) == "env-pw"
    assert launch.read_password(host_args("--password"), env={},
                                ask=lambda prompt: "typed") == "typed"
    f = tmp_path / "pw"
    f.write_text("file-pw\nsecond line ignored\n")
    f.chmod(0o600)
    assert launch.read_password(host_args("--password-file", str(f)), env={}) == "file-pw"
    f.chmod(0o644)
    with pytest.raises(CliError, match="can be read by other accounts.*chmod 600"):
        launch.read_password(host_args("--password-file", str(f)), env={})
    with pytest.raises(CliError, match="cannot read"):
        launch.read_password(host_args("--password-file", str(tmp_path / "none")), env={})
    empty = tmp_path / "empty"
    empty.write_text("\n")
    empty.chmod(0o600)
    with pytest.raises(CliError, match="1 to"):
        launch.read_password(host_args("--password-file", str(empty)), env={})

def test_unix_flags_are_checked():
    with pytest.raises(CliError, match="add --unix"):
        launch.check_unix_flags(host_args("--allow", "bo"))
    with pytest.raises(CliError, match="needs no password"):
        launch.check_unix_flags(host_args("--unix", "--password"))
    with pytest.raises(CliError, match="named after your login"):
        launch.check_unix_flags(host_args("--unix", "--name", "Ana"))
    with pytest.raises(CliError, match="no account named"):
        launch.unix_policy(host_args("--unix", "--allow", "no-such-user-xyz"))

def test_resume_of_a_missing_or_broken_file_is_a_clear_error(tmp_path):
    with pytest.raises(CliError, match="no save file"):
        launch.make_host(host_args("--resume", str(tmp_path / "nope.json")), RuleSet(), None)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CliError, match="not valid JSON"):
        launch.make_host(host_args("--resume", str(bad)), RuleSet(), None)

def test_resume_tokens_are_kept_owner_only(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    assert launch.load_token("10.0.0.5", 7777, "Ana") is None
    launch.store_token("10.0.0.5", 7777, "Ana", "secret-token")
    assert launch.load_token("10.0.0.5", 7777, "ana") == "secret-token"
    assert launch.load_token("10.0.0.5", 7778, "Ana") is None
    assert stat.S_IMODE(os.stat(launch.tokens_path()).st_mode) == 0o600
    launch.tokens_path().write_text("garbage")
    assert launch.load_token("10.0.0.5", 7777, "Ana") is None

def test_lan_addresses():
    assert launch.lan_addresses("192.168.1.9") == ["192.168.1.9"]
    found = launch.lan_addresses("0.0.0.0")
    assert found and all(a.count(".") == 3 for a in found)

def test_join_refuses_a_bad_address_or_name():
    join = build_parser().parse_args(["join", "host:notaport", "--name", "Ana"])
    with pytest.raises(CliError, match="port"):
        netplay.run_join(join)
    join = build_parser().parse_args(["join", "127.0.0.1:7777", "--name", "\x1b\u202e"])
    with pytest.raises(CliError, match="name"):
        netplay.run_join(join)
    for argv, why in ((["join"], "join what"), (["join", "127.0.0.1"], "needs --name"),
                      (["join", "@no-such-user-xyz"], "no account named"),
                      (["join", "@me", "--name", "X"], "named after your login"),
                      (["join", "@me", "--password"], "needs no password"),
                      (["join", "127.0.0.1", "--name", "A", "--password", "pw"], "no value"),
                      (["join", "10.1.2.3", "--name", "A", "--owner", "x"], "on this machine"),
                      (["join", "127.0.0.1", "--name", "A", "--owner", "no-such-user-xyz"],
                       "no account named")):
        with pytest.raises(CliError, match=why):
            launch.join_session(build_parser().parse_args(argv))

def test_logs_and_the_data_folder_are_private(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path / "home"))
    old = os.umask(0o022)
    try:
        log = launch.private_log("host.log")
        save = launch.default_save_path()
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(log.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(save.parent).st_mode) == 0o700
    log.chmod(0o644)  # an old, too open log is made private again
    launch.private_log("host.log")
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600


class FakeProc:
    pid = 4242

    def __init__(self) -> None:
        self.stopped = False

    def poll(self):
        return None

    def terminate(self) -> None:
        self.stopped = True

    def wait(self, timeout=None):
        return 0


class FakeSession:
    def __init__(self, seats, *, started: bool, over: bool = False) -> None:
        self.lobby = {"seats": seats}
        self.seat = 0
        self.game_started = started
        self._over = over

    def view(self, seat):
        if not self.game_started:
            raise RuntimeError("no view")
        return argparse.Namespace(game_over=self._over)


def test_the_table_outlives_the_hosts_screen_only_while_others_play(capsys):
    host = {"seat": 0, "name": "Ana", "bot": None, "connected": True}
    bo = {"seat": 1, "name": "Bo", "bot": None, "connected": True}
    bot = {"seat": 2, "name": "Bot 1", "bot": "random", "connected": True}
    cases = [  # (seats, started, over) -> the table is stopped
        (([host, bo, bot], True, False), False),
        (([host, bo, bot], False, False), True),      # quit in the lobby
        (([host, bot], True, False), True),           # nobody else but bots
        (([host, {**bo, "connected": False}], True, False), True),
        (([host, bo], True, True), True),             # the game is over
    ]
    for (seats, started, over), stopped in cases:
        proc = FakeProc()
        launch.after_screen(proc, FakeSession(seats, started=started, over=over),
                            "pokeroulette join @me", "pokeroulette host --unix --stop")
        assert proc.stopped is stopped, (seats, started, over)
    out = capsys.readouterr().out
    assert "still running for Bo" in out and "join @me" in out and "--unix --stop" in out


def test_sitting_at_your_own_table_is_the_screens_job():
    """The network glue runs no screen: without one to sit at, only --headless hosts."""
    with pytest.raises(CliError, match="--headless"):
        launch.run_host(host_args("--port", "0"), RuleSet(), play=None)
    seen = []
    code = launch.run_host(host_args("--port", "0"), RuleSet(),
                           play=lambda args, rules, password: seen.append((rules, password)) or 7)
    assert code == 7 and seen == [(RuleSet(), None)]


def test_join_uses_tls_by_default_and_checks_the_fingerprint_flag(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    session, _ = launch.join_session(build_parser().parse_args(
        ["join", "10.1.2.3", "--name", "Ana"]))
    assert session.tls and session.known is not None and session.fingerprint is None
    assert str(session.known.path).startswith(str(tmp_path))
    plain, _ = launch.join_session(build_parser().parse_args(
        ["join", "10.1.2.3", "--name", "Ana", "--no-tls"]))
    assert not plain.tls
    fp = "SHA256:" + "A" * 43
    pinned, _ = launch.join_session(build_parser().parse_args(
        ["join", "10.1.2.3", "--name", "Ana", "--fingerprint", fp.lower().replace("sha256", "SHA256")]))
    assert pinned.fingerprint is not None and pinned.fingerprint.startswith("SHA256:")
    for argv, why in ((["--fingerprint", "nonsense"], "not a certificate fingerprint"),
                      (["--fingerprint", fp, "--no-tls"], "cannot go with --no-tls")):
        with pytest.raises(CliError, match=why):
            launch.join_session(build_parser().parse_args(
                ["join", "10.1.2.3", "--name", "Ana", *argv]))


def test_the_banner_shows_the_certificate_or_warns_without_tls():
    from pokeroulette_tui.net.serve import Listen
    host = launch.make_host(host_args("--headless"), RuleSet(), None)
    args = host_args("--headless", "--bind", "127.0.0.1")
    lines = "\n".join(launch.banner(host, Listen("127.0.0.1", 7777, tls=True,
                                                 fingerprint="SHA256:abc"), args))
    assert "TLS certificate:    SHA256:abc" in lines and "--no-tls" not in lines
    lines = "\n".join(launch.banner(host, Listen("0.0.0.0", 7777, tls=False), args))
    assert "NO TLS" in lines and "--name NAME --no-tls" in lines


def test_join_says_in_one_line_when_nothing_listens(tmp_path, monkeypatch):
    import socket

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    join = build_parser().parse_args(["join", f"127.0.0.1:{port}", "--name", "Ana"])
    with pytest.raises(CliError, match="nothing is listening there"):
        netplay.run_join(join)
    assert netplay.reachable("nosuchhost.invalid", 7777).endswith(
        "there is no machine called 'nosuchhost.invalid'")
