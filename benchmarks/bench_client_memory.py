"""A spectating client's memory at a busy table, against a bare Textual app in the same run.

Usage::

    python benchmarks/bench_client_memory.py [--seconds N] [--warmup N] [--bots N]
                                             [--delay S] [--result-pause S] [--think S]
                                             [--normal] [--rule NAME=VALUE] [--no-bare]

What runs (all real processes, nothing in-process):

* **the host** — ``pokeroulette host --headless --bots N --delay S --result-pause S`` on
  127.0.0.1 (port 0, read off its banner), ``POKEROULETTE_HOME`` a fresh temporary folder,
  so its journal is written there; TLS as by default (``--no-tls`` for plain TCP);
* **one seated player** — a light line client in this process (JSON only, no UI) that
  readies (a headless table needs one human to start) and then plays passively (check,
  call, keep, stand pat, cut in the middle) after ``--think`` seconds; it counts the state
  messages, actions (the table's version) and events of the table;
* **the client measured** — the real ``pokeroulette join 127.0.0.1:PORT --spectate`` (with
  ``--fingerprint`` from the host's banner) in a
  pseudo-terminal (80x24 via TIOCSWINSZ, ``TERM=xterm-256color``), its own fresh
  ``POKEROULETTE_HOME``; its output is drained continuously, so it never blocks on the
  terminal;
* **the reference** — ``python benchmarks/bare_app.py`` (a Textual app with a footer)
  idling in the same kind of pseudo-terminal for the same time, alongside.

After ``--warmup`` seconds (default 10) both processes' VmRSS is read from /proc once a
second for ``--seconds`` (default 60). Printed: RSS at the start and end, growth in KiB/s
(least-squares slope over the samples, and end minus start over the time), the client's
CPU, the table's pace (actions, events, journal bytes and terminal bytes per second), and
the same memory figures for the bare app with the ratios/differences.

``--normal`` is normal play instead of a fast table: the default dealer/bot pace 0.6 s, the
default result pause (4 s), the seated player thinking 1 s a turn; ``--seconds 1800`` is the
30-minute figure of issue 8. A shorter ``--normal`` run prints its slope extrapolated to 30
minutes and says that it is an extrapolation.

Targets (issue 8): at most +3 KB/s while spectating a fast table for a minute, at most
+5 MiB over 30 minutes of normal play.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE_APP = Path(__file__).resolve().parent / "bare_app.py"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_startup import COLS, ROWS, spawn_in_pty  # noqa: E402
KIB = 1024.0


def console_script() -> str:
    path = Path(sys.executable).parent / "pokeroulette"
    found = str(path) if path.exists() else shutil.which("pokeroulette")
    if not found:
        raise SystemExit("the pokeroulette command is not installed (pip install -e .)")
    return found


# -- /proc ------------------------------------------------------------------------------------

def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0


# -- a process in a pseudo-terminal -------------------------------------------------------------

class PtyProcess:
    """A command in a pseudo-terminal of its own (80x24); its output is read as it comes
    (counted, the tail kept for error messages), so it never blocks writing to the terminal."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        pid, fd = spawn_in_pty(argv, env)  # (the start-up benchmark's, same window size)
        self.pid, self.fd = pid, fd
        self.bytes = 0
        self.tail = b""
        self.ended = False
        os.set_blocking(fd, False)
        asyncio.get_running_loop().add_reader(fd, self._read)

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:  # EIO: the child closed the terminal
                data = b""
            if not data:
                self.ended = True
                asyncio.get_running_loop().remove_reader(self.fd)
                return
            self.bytes += len(data)
            self.tail = (self.tail + data)[-4000:]

    def screen_tail(self) -> str:
        text = re.sub(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", b" ", self.tail)
        return re.sub(r"\s+", " ", text.decode("utf-8", "replace"))[-400:]

    def alive(self) -> bool:
        return not self.ended and rss_kib(self.pid) is not None

    def close(self) -> None:
        loop = asyncio.get_running_loop()
        if not self.ended:
            loop.remove_reader(self.fd)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def pty_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("TEXTUAL", None)
    env["TERM"] = "xterm-256color"
    env["COLUMNS"], env["LINES"] = str(COLS), str(ROWS)
    env["POKEROULETTE_HOME"] = str(home)
    return env


# -- the host and the seated player ---------------------------------------------------------------

def start_host(args: argparse.Namespace,
               home: Path) -> tuple[subprocess.Popen[str], int, Path | None, str | None]:
    """``pokeroulette host --headless`` on 127.0.0.1, port 0: (process, port, journal, the
    TLS certificate's fingerprint or None with ``--no-tls``)."""
    argv = [console_script(), "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
            "--bots", str(args.bots), "--delay", str(args.delay), "--seed", "1",
            "--bot-level", args.bot_level]
    if args.result_pause is not None:
        argv += ["--result-pause", str(args.result_pause)]
    if args.no_tls:
        argv.append("--no-tls")
    for rule in args.rule:
        argv += ["--rule", rule]
    env = dict(os.environ, POKEROULETTE_HOME=str(home))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, start_new_session=True)
    assert proc.stdout is not None
    port, journal, fingerprint, seen = None, None, None, []
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if port is None and (m := re.search(r"127\.0\.0\.1:(\d+)", line)):
            port = int(m.group(1))
        if (m := re.search(r"saving to (\S+)", line)):
            journal = Path(m.group(1))
        if (m := re.search(r"(SHA256:\S+)", line)):
            fingerprint = m.group(1)
        if "Press Ctrl-C" in line or (port is not None and journal is not None):
            break
    if port is None:
        proc.kill()
        raise SystemExit("the host did not start:\n" + "".join(seen))
    # keep draining its output (a full pipe would stall it)
    asyncio.get_running_loop().run_in_executor(None, lambda: proc.stdout.read())  # type: ignore[union-attr]
    return proc, port, journal, fingerprint


@dataclass
class Player:
    """A seated line client: readies, then plays passively; counts the table's pace."""

    think: float
    states: int = 0
    events: int = 0
    version: int = 0
    game_over: bool = False
    closed: str = ""
    marks: list[tuple[float, int, int, int]] = field(default_factory=list)

    async def run(self, port: int, tls: bool) -> None:
        ctx = None
        if tls:  # our own host, just started: no pinning needed here
            import ssl
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24, ssl=ctx)
        self.writer = writer
        await self.send({"type": "hello", "version": 2, "name": "Seated", "spectate": False})
        seat = None
        ids = 0
        try:
            while True:
                line = await reader.readline()
                if not line:
                    self.closed = "the host closed the connection"
                    return
                msg = json.loads(line)
                kind = msg["type"]
                if kind == "welcome":
                    seat = msg.get("seat")
                    await self.send({"type": "ready", "ready": True})
                elif kind == "error" and msg.get("fatal") or kind == "bye":
                    self.closed = str(msg.get("message") or msg.get("reason") or kind)
                    return
                elif kind == "state":
                    self.states += 1
                    self.events += len(msg.get("events") or ())
                    self.version = int(msg.get("version", self.version))
                    view = msg["view"]
                    if view.get("game_over"):
                        self.game_over = True
                    action = policy(view, seat)
                    if action is not None:
                        if self.think:
                            await asyncio.sleep(self.think)
                        ids += 1
                        await self.send({"type": "act", "id": ids, "version": self.version,
                                         "action": action})
        except (ConnectionError, OSError) as exc:
            self.closed = f"connection lost ({exc.__class__.__name__})"

    async def send(self, msg: dict) -> None:
        self.writer.write(json.dumps(msg).encode() + b"\n")
        await self.writer.drain()

    def mark(self, t: float) -> None:
        self.marks.append((t, self.states, self.events, self.version))


def policy(view: dict, seat: int | None) -> dict | None:
    if seat is None or view.get("to_act") != seat or view.get("seat") != seat \
            or view.get("game_over") or view.get("dealer_step"):
        return None
    phase = view.get("phase")
    if phase == "betting":
        o = view.get("options") or {}
        if o.get("check"):
            return {"type": "check"}
        if o.get("call"):
            return {"type": "call"}
        return {"type": "fold"}
    if phase == "stock_to_active":
        return {"type": "stock_to_active", "index": None}
    if phase == "draw":
        return {"type": "discard", "indices": []}
    if phase == "cut":
        return {"type": "cut", "position": int(view.get("deck_count", 2)) // 2}
    return None


# -- sampling -------------------------------------------------------------------------------------

@dataclass
class Series:
    name: str
    pid: int
    t: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def sample(self, t: float) -> None:
        r, c = rss_kib(self.pid), cpu_seconds(self.pid)
        if r is not None and c is not None:
            self.t.append(t)
            self.rss.append(r)
            self.cpu.append(c)

    @property
    def span(self) -> float:
        return self.t[-1] - self.t[0] if len(self.t) > 1 else 0.0

    def slope(self) -> float:
        return slope(self.t, [float(r) for r in self.rss])

    def end_minus_start(self) -> float:
        return (self.rss[-1] - self.rss[0]) / self.span if self.span else 0.0

    def cpu_share(self) -> float:
        return (self.cpu[-1] - self.cpu[0]) / self.span if self.span else 0.0


async def measure(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="bench-client-memory-"))
    host_home, client_home, bare_home = tmp / "host", tmp / "client", tmp / "bare"
    for p in (host_home, client_home, bare_home):
        p.mkdir()
    host, port, journal, fingerprint = start_host(args, host_home)
    player = Player(think=args.think)
    player_task = asyncio.create_task(player.run(port, tls=not args.no_tls))
    client = bare = None
    this = asyncio.current_task()  # a stop (kill, ^C) still closes the apps and the host below:
    for sig in (signal.SIGTERM, signal.SIGHUP):  # an orphaned app spins on its dead terminal
        asyncio.get_running_loop().add_signal_handler(sig, this.cancel)  # type: ignore[union-attr]
    try:
        # the game starts when the seated player is ready; then the spectator joins it
        give_up = time.monotonic() + 30
        while player.states == 0:
            if time.monotonic() > give_up or player_task.done():
                raise SystemExit(f"the game did not start ({player.closed or 'no state'})")
            await asyncio.sleep(0.05)
        join = [console_script(), "join", f"127.0.0.1:{port}", "--spectate", "--name", "Watcher"]
        join += ["--no-tls"] if args.no_tls else ["--fingerprint", fingerprint] if fingerprint else []
        client = PtyProcess(join, pty_env(client_home))
        if not args.no_bare:
            bare = PtyProcess([sys.executable, str(BARE_APP)], pty_env(bare_home))
        print(f"host pid {host.pid} on 127.0.0.1:{port}; spectator pid {client.pid}"
              + (f"; bare app pid {bare.pid}" if bare else "")
              + f"; warm-up {args.warmup:g} s, then {args.seconds:g} s of samples", flush=True)
        await asyncio.sleep(args.warmup)
        if not client.alive():
            raise SystemExit("the spectating client ended during the warm-up; it showed: "
                             + client.screen_tail())
        series = [Series("spectator", client.pid)] + ([Series("bare app", bare.pid)] if bare else [])
        journal0 = journal.stat().st_size if journal and journal.exists() else 0
        out0 = client.bytes
        t0 = time.monotonic()
        next_report = 60.0
        for i in range(int(args.seconds) + 1):
            await asyncio.sleep(max(0.0, t0 + i - time.monotonic()))
            now = time.monotonic() - t0
            player.mark(now)
            for s in series:
                s.sample(now)
            if not client.alive():
                print("! the spectating client ended early; it showed: " + client.screen_tail())
                break
            if args.seconds > 120 and now >= next_report:
                next_report += 60
                sp = series[0]
                print(f"  {now:6.0f} s  spectator RSS {sp.rss[-1] / KIB:6.1f} MiB"
                      f"  (+{(sp.rss[-1] - sp.rss[0]) / KIB:.2f} MiB)  slope "
                      f"{sp.slope():+.2f} KiB/s", flush=True)
        journal1 = journal.stat().st_size if journal and journal.exists() else 0
        report(args, series, player, journal1 - journal0, client.bytes - out0)
        if player.game_over or player.closed:
            print(f"! the table {'ended' if player.game_over else 'closed: ' + player.closed} "
                  f"during the run: later samples are of a quiet table")
        return 0
    finally:
        for p in (client, bare):
            if p is not None:
                p.close()
        player_task.cancel()
        try:
            os.killpg(host.pid, signal.SIGINT)
            host.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            host.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def report(args: argparse.Namespace, series: list[Series], player: Player, journal_bytes: int,
           out_bytes: int) -> None:
    sp = series[0]
    span = sp.span or 1.0
    (t0, s0, e0, v0), (t1, s1, e1, v1) = player.marks[0], player.marks[-1]
    dt = (t1 - t0) or 1.0
    mode = "normal play" if args.normal else "a fast table"
    print(f"\nspectating {mode}: {args.bots} bots, delay {args.delay:g} s, result pause "
          f"{args.result_pause if args.result_pause is not None else 'default'} s, seated "
          f"player thinks {args.think:g} s; {len(sp.t)} samples over {span:.0f} s")
    print(f"table pace: {(v1 - v0) / dt:.1f} actions/s, {(e1 - e0) / dt:.1f} events/s, "
          f"{(s1 - s0) / dt:.1f} state messages/s; journal +{journal_bytes / span / KIB:.2f} KiB/s; "
          f"spectator's terminal output {out_bytes / span / KIB:.1f} KiB/s")
    print(f"\n{'':12}{'RSS start':>11}{'RSS end':>11}{'slope':>14}{'end-start':>14}{'CPU':>7}")
    for s in series:
        print(f"{s.name:12}{s.rss[0] / KIB:>8.1f} MiB{s.rss[-1] / KIB:>7.1f} MiB"
              f"{s.slope():>+9.2f} KiB/s{s.end_minus_start():>+9.2f} KiB/s{s.cpu_share():>6.0%}")
    if len(series) > 1:
        b = series[1]
        print(f"spectator vs bare app: RSS {sp.rss[0] / b.rss[0]:.2f}x at the start, "
              f"{sp.rss[-1] / b.rss[-1]:.2f}x at the end; growth {sp.slope() - b.slope():+.2f} KiB/s "
              f"more than the bare app (slope), {sp.end_minus_start() - b.end_minus_start():+.2f} "
              f"KiB/s (end-start)")
    if args.series:
        print("spectator RSS (MiB) every 10 s: " + " ".join(
            f"{r / KIB:.1f}" for t, r in zip(sp.t, sp.rss) if round(t) % 10 == 0))
    kb_s = sp.slope() * KIB / 1000
    if args.normal:
        total = sp.rss[-1] - sp.rss[0]
        if span >= 1799:
            print(f"30 minutes of normal play: {total / KIB:+.2f} MiB (target at most +5 MiB)")
        else:
            print(f"30 minutes of normal play, EXTRAPOLATED from {span:.0f} s at the slope: "
                  f"{sp.slope() * 1800 / KIB:+.2f} MiB (target at most +5 MiB; measured "
                  f"{total / KIB:+.2f} MiB in this run)")
    else:
        print(f"target: at most +3 KB/s at a fast table for a minute: {kb_s:+.2f} KB/s "
              f"({'met' if kb_s <= 3 else 'NOT met'})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=None,
                    help="seconds of samples after the warm-up (default 60)")
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--bots", type=int, default=4)
    ap.add_argument("--bot-level", default="random")
    ap.add_argument("--delay", type=float, default=None,
                    help="dealer/bot pace (default 0.05, or 0.6 with --normal)")
    ap.add_argument("--result-pause", type=float, default=None,
                    help="seconds a hand's result shows (default 0.2, or the host's with --normal)")
    ap.add_argument("--think", type=float, default=None,
                    help="the seated player's seconds per turn (default 0, or 1 with --normal)")
    ap.add_argument("--normal", action="store_true", help="normal play (a human-like pace)")
    ap.add_argument("--rule", action="append", default=None,
                    help="a rule for the host (repeatable; default starting_chips=1000000 so "
                         "the game outlasts the run)")
    ap.add_argument("--no-bare", action="store_true", help="skip the bare Textual app reference")
    ap.add_argument("--no-tls", action="store_true",
                    help="host and join with --no-tls (plain TCP; the default is TLS)")
    ap.add_argument("--series", action="store_true",
                    help="also print the spectator's RSS every 10 s (where the growth happens)")
    args = ap.parse_args()
    if args.seconds is None:
        args.seconds = 60.0
    if args.delay is None:
        args.delay = 0.6 if args.normal else 0.05
    if args.result_pause is None and not args.normal:
        args.result_pause = 0.2
    if args.think is None:
        args.think = 1.0 if args.normal else 0.0
    if args.rule is None:
        args.rule = ["starting_chips=1000000"]
    try:
        return asyncio.run(measure(args))
    except (asyncio.CancelledError, KeyboardInterrupt):
        print("stopped: the apps and the host were closed", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
