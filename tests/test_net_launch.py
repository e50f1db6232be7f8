"""The host/join command-line glue: flags, the kept resume tokens, the server thread."""

from __future__ import annotations

import argparse
import json
import os
import socket
import stat
import time

import pytest

from pokeroulette_tui.cli import CliError, build_parser
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import launch

from net_helpers import make_host


def host_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def test_host_flags_become_a_config():
    cfg = launch.host_config(host_args("--headless", "--turn-timeout", "20", "--bots", "2",
                                       "--delay", "0", "--seed", "4", "--password", "pw"),
                             RuleSet())
    assert cfg.headless and cfg.turn_timeout == 20 and cfg.bots == 2 and cfg.delay == 0
    assert cfg.seed == 4 and cfg.password == "pw"
    for bad in (["--port", "70000"], ["--turn-timeout", "-1"], ["--bots", "40"],
                ["--bot-level", "genius"], ["--delay", "99"]):
        with pytest.raises(CliError):
            launch.host_config(host_args(*bad), RuleSet())


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


def test_the_server_thread_says_goodbye_when_stopped():
    t = launch.ServerThread(make_host(), "127.0.0.1", 0)
    t.start()
    assert t.ready.wait(5) and t.error is None
    s = socket.create_connection(("127.0.0.1", t.address[1]))
    s.sendall(b'{"type":"hello","version":1,"name":"X"}\n')
    time.sleep(0.2)
    t.stop()
    assert not t.is_alive()
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    kinds = [json.loads(line)["type"] for line in data.splitlines()]
    assert kinds[0] == "welcome" and kinds[-1] == "bye"
    s.close()


def test_join_refuses_a_bad_address_or_name():
    join = build_parser().parse_args(["join", "host:notaport", "--name", "Ana"])
    with pytest.raises(CliError, match="port"):
        launch.run_join(join)
    join = build_parser().parse_args(["join", "127.0.0.1:7777", "--name", "\x1b\u202e"])
    with pytest.raises(CliError, match="name"):
        launch.run_join(join)
