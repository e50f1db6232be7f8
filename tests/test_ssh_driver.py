"""The SSH room's Textual driver on its own (it reads Textual's key parser, not public: this
is what tells a Textual upgrade broke it), and ``serve-ssh`` without asyncssh."""

from __future__ import annotations

import asyncio
import sys

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from pokeroulette_tui.net.ssh.terminal import Terminal
from pokeroulette_tui.ui.ssh_driver import ChannelDriver


class Probe(App[None]):
    def __init__(self, terminal: Terminal) -> None:
        super().__init__(driver_class=ChannelDriver)
        self.terminal = terminal
        self.keys: list[str] = []
        self.sizes: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        yield Static("hello from the probe", id="probe")

    def on_key(self, event) -> None:
        self.keys.append(event.key)
        if event.key == "q":
            self.exit()

    def on_resize(self, event) -> None:
        self.sizes.append((event.size.width, event.size.height))


async def until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


async def test_keys_resize_and_output_go_through_the_channel():
    sent: list[bytes] = []
    terminal = Terminal(sent.append, (90, 20))
    terminal.feed(b"x")  # a key before the app listens is kept, not lost
    app = Probe(terminal)
    task = asyncio.create_task(app.run_async())
    await until(lambda: app.sizes and (90, 20) in app.sizes)
    await until(lambda: "x" in app.keys)
    terminal.feed(b"\x1b[A")            # an arrow key, as an escape sequence
    terminal.feed(b"\xc3")                      # a letter split over two packets …
    terminal.feed(b"\xa4")                      # … ä
    await until(lambda: "up" in app.keys and "ä" in app.keys)
    terminal.feed(b"\x1b")                      # a lone Esc is the escape key, after a wait
    await until(lambda: "escape" in app.keys)
    terminal.resize(120, 33)
    await until(lambda: tuple(app.size) == (120, 33))
    await until(lambda: b"hello from the probe" in b"".join(sent))
    terminal.feed(b"q")
    await asyncio.wait_for(task, 5)
    out = b"".join(sent)
    assert out.startswith(b"\x1b[?1049h")       # the alternate screen, and back at the end
    assert out.rstrip().endswith(b"\x1b[?1049l\x1b[?25h")


async def test_a_client_that_stops_reading_is_dropped_once():
    dropped: list[int] = []
    waiting = [0]
    terminal = Terminal(lambda data: waiting.__setitem__(0, waiting[0] + len(data)), (80, 24),
                        buffered=lambda: waiting[0], max_buffer=1000,
                        too_slow=lambda: dropped.append(1))
    terminal.write("x" * 600)
    terminal.flush()
    assert not dropped
    terminal.write("x" * 600)
    terminal.flush()
    terminal.write("x" * 600)
    terminal.flush()
    assert dropped == [1] and terminal.closed


def test_serve_ssh_without_asyncssh_says_what_to_install(monkeypatch, capsys):
    from pokeroulette_tui import cli

    monkeypatch.setitem(sys.modules, "asyncssh", None)  # as if it were not installed
    assert cli.main(["serve-ssh", "--port", "0"]) != 0
    err = capsys.readouterr().err.strip()
    assert "install pokeroulette_tui[ssh]" in err and len(err.splitlines()) == 1


def test_the_base_command_line_does_not_load_asyncssh():
    import subprocess

    code = ("import sys; from pokeroulette_tui import cli; cli.build_parser(); "
            "print('asyncssh' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_serve_ssh_says_what_is_wrong_in_one_line(monkeypatch, tmp_path, capsys):
    pytest.importorskip("asyncssh")
    from pokeroulette_tui import cli

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    cases = [
        (["--authorized-keys", str(tmp_path / "missing")], "cannot read"),
        (["--host-key", str(tmp_path / "nokey")], "no host key"),
        (["--port", "70000"], "--port must be"),
    ]
    names = tmp_path / "data" / "ssh" / "names.json"
    names.parent.mkdir(parents=True)
    names.write_text("{not json")
    cases.append(([], "move it away"))
    for flags, words in cases:
        assert cli.main(["serve-ssh", "--port", "0", *flags]) != 0
        err = capsys.readouterr().err.strip()
        assert words in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "data" / "ssh" / "ssh_host_ed25519_key").exists()
