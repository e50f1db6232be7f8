"""The SSH card room with real SSH clients: memory per session and key-to-screen latency,
the app in the server's process (what ``serve-ssh`` does) against one process per session.

Usage::

    python benchmarks/bench_ssh.py [--sizes 1,10,50] [--busy 20] [--seconds 4]
                                   [--modes in-process,per-process]

What runs (real processes, real SSH):

* **the room** — a child process (``bench_ssh.py --serve MODE``) serving a room on
  127.0.0.1 (port 0) with two tables open, so the room's list has rows;
  ``POKEROULETTE_HOME`` a fresh temporary folder;
  - ``in-process``: each SSH session's app runs in the room's process on the channel
    driver (what ``pokeroulette serve-ssh`` does);
  - ``per-process`` (the reference, ``serve-ssh --per-process``): each SSH session starts a
    child Python process that runs the same app with Textual's own Linux driver on a
    pseudo-terminal, the room's process copying bytes between the PTY and the SSH channel
    (resize: TIOCSWINSZ) and answering the child's room requests on a control socket;
* **the players** — asyncssh clients in this process (``xterm-256color``, 100×30), each
  with its own Ed25519 key and name, each waiting for the room's welcome.

Memory: the proportional set size (PSS, from /proc/PID/smaps_rollup: shared pages split
between the processes that share them) of the room's process plus, per-process, all its
children, after each size is reached; per session = (total − the room with no session) / N,
the room measured after a first session has come and gone (what it loaded once stays).

Latency: every busy session moves the room list's cursor to the other table (down, up,
down …) about every 250 ms (jittered) for ``--seconds``; the time from the key's write to
the first output that redraws a table's row (the list changes only on keys: nothing else
is drawn meanwhile) is one sample. p50/p95/max are printed for all the sizes and for ``--busy`` sessions busy at once
(the issue's aim: p95 ≤ 100 ms at 20 busy sessions; ≤ 15 MiB per session).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


# -- the room (a child process) ---------------------------------------------------------------

def pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                out += [int(p) for p in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def tree_pss_kib(pid: int) -> int:
    return pss_kib(pid) + sum(tree_pss_kib(c) for c in children(pid))


def serve(mode: str, tables: int = 0) -> None:
    """The room (a child process). ``tables``: that many live tables besides, each with a
    player in this process (no screen) playing passively against three bots at the normal
    pace (0.6 s a dealer or bot step, a 2 s pause after each hand)."""
    import asyncssh
    from net_helpers import autoplay
    from ssh_helpers import serve_room

    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.ssh.room import Room

    async def seat(room: Room, number: int) -> None:
        session = room.session(number, room.account(f"seat{number}"))
        await session.connect()
        await session.set_ready(True)
        await autoplay(session, hands=10**6)

    async def main() -> None:
        room = Room(turn_timeout=30.0, delay=0.6, hand_pause=2.0, start_countdown=0.0) \
            if tables else None
        served = await serve_room(None, room=room, per_process=mode == "per-process")
        served.front.limits.max_sessions = 10_000
        served.front.limits.per_address = 10_000
        served.front.limits.pending_per_address = 10_000
        served.room.empty_close = 1e9
        served.room.create("ana", RuleSet(), variant="classic", bots=2)
        served.room.create("bo", RuleSet(), variant="classic", bots=3)
        players = []
        for i in range(tables):
            t = served.room.create(f"host{i}", RuleSet(), variant="classic", bots=3)
            players.append(asyncio.create_task(seat(served.room, t.number)))
        print(f"PORT {served.port}", flush=True)
        await asyncio.Event().wait()

    assert asyncssh  # (the room needs it)
    asyncio.run(main())


# -- the players (this process) ---------------------------------------------------------------

async def open_player(port: int, name: str):
    import asyncssh
    from ssh_helpers import connect

    key = asyncssh.generate_private_key("ssh-ed25519")
    for attempt in range(5):
        try:
            player = await connect(port, name, key)
            await player.wait_for("Welcome, " + name, timeout=60)
            return player
        except (OSError, asyncssh.Error):
            await asyncio.sleep(0.5 * (attempt + 1))
    raise RuntimeError(f"{name} could not log in")


async def press_and_time(player, rounds_until: float, samples: list[float]) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.random() * 0.25)
    down = True
    while loop.time() < rounds_until:
        player.clear()
        player.changed.clear()
        t0 = time.perf_counter()
        player.press("\x1b[B" if down else "\x1b[A")  # the cursor to the other table
        down = not down
        try:
            await player.wait_for("classic", timeout=5)  # its row redrawn
            samples.append((time.perf_counter() - t0) * 1000)
        except AssertionError:
            samples.append(5000.0)
        await asyncio.sleep(0.15 + random.random() * 0.2)


async def busy(players, seconds: float) -> list[float]:
    samples: list[float] = []
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(press_and_time(p, until, samples) for p in players))
    return samples


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


async def run_mode(mode: str, sizes: list[int], busy_n: int, seconds: float) -> dict:
    home = tempfile.mkdtemp(prefix="bench-ssh-")
    atexit.register(shutil.rmtree, home, True)
    env = dict(os.environ, POKEROULETTE_HOME=home)
    wrap = os.environ.get("BENCH_SSH_WRAP")  # (a diagnostic wrapper script, if set)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *([wrap] if wrap else []), __file__, "--serve", mode,
        stdout=asyncio.subprocess.PIPE, env=env)
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    port = int(line.split()[1])
    warm = await open_player(port, "warmup")  # what the first session loads stays: not its cost
    await warm.close()
    await asyncio.sleep(2.0)
    base = tree_pss_kib(proc.pid)
    out = {"mode": mode, "base_mib": base / 1024, "rows": []}
    players = []
    try:
        for n in sizes:
            while len(players) < n:
                batch = [open_player(port, f"p{len(players) + i}")
                         for i in range(min(5, n - len(players)))]
                players += await asyncio.gather(*batch)
            await asyncio.sleep(2.0)
            total = tree_pss_kib(proc.pid)
            samples = await busy(players, seconds)
            out["rows"].append({"n": n, "per_session_mib": (total - base) / 1024 / n,
                                "total_mib": total / 1024, "p50": pct(samples, 0.5),
                                "p95": pct(samples, 0.95), "max": max(samples),
                                "count": len(samples)})
            print(f"  {mode:11} {n:3} sessions: {(total - base) / 1024 / n:6.1f} MiB/session "
                  f"(total {total / 1024:7.1f} MiB) · key-to-screen p50 {pct(samples, .5):6.1f} "
                  f"ms p95 {pct(samples, .95):6.1f} ms max {max(samples):7.1f} ms "
                  f"({len(samples)} keys; load {os.getloadavg()[0]:.1f})", flush=True)
        if busy_n:
            group = players[:busy_n]
            while len(group) < busy_n:
                p = await open_player(port, f"p{len(players)}")
                players.append(p)
                group.append(p)
            samples = await busy(group, seconds * 2)
            out["busy"] = {"n": busy_n, "p50": pct(samples, .5), "p95": pct(samples, .95),
                           "max": max(samples), "count": len(samples),
                           "idle_sessions": len(players) - busy_n}
            print(f"  {mode:11} {busy_n} busy of {len(players)} sessions: p50 "
                  f"{pct(samples, .5):6.1f} ms p95 {pct(samples, .95):6.1f} ms "
                  f"max {max(samples):7.1f} ms ({len(samples)} keys)", flush=True)
    finally:
        for p in players:
            with contextlib.suppress(Exception):
                await p.close()
        proc.terminate()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(proc.wait(), 10)
        if proc.returncode is None:
            proc.kill()
    return out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def live_tables(count: int, seconds: float) -> dict:
    """``count`` tables playing at the normal pace, then one SSH watcher at each: the room's
    CPU (share of one core) without and with the watchers' screens."""
    home = tempfile.mkdtemp(prefix="bench-ssh-")
    atexit.register(shutil.rmtree, home, True)
    env = dict(os.environ, POKEROULETTE_HOME=home)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", "in-process", "--serve-tables", str(count),
        stdout=asyncio.subprocess.PIPE, env=env)
    port = int((await asyncio.wait_for(proc.stdout.readline(), 60)).decode().split()[1])
    watchers = []
    try:
        await asyncio.sleep(3.0)
        c0 = cpu_seconds(proc.pid)
        await asyncio.sleep(seconds)
        bare = (cpu_seconds(proc.pid) - c0) / seconds
        for i in range(count):
            w = await open_player(port, f"w{i}")
            for _ in range(i + 2):  # the table's row (two idle tables first)
                w.press("\x1b[B")
                await asyncio.sleep(0.05)
            w.press("w")
            await w.wait_for("Hand", timeout=60)
            watchers.append(w)
        await asyncio.sleep(2.0)
        sent0 = sum(len("".join(w.out)) for w in watchers)
        c0 = cpu_seconds(proc.pid)
        await asyncio.sleep(seconds)
        watched = (cpu_seconds(proc.pid) - c0) / seconds
        sent = (sum(len("".join(w.out)) for w in watchers) - sent0) / seconds / count
    finally:
        for w in watchers:
            with contextlib.suppress(Exception):
                await w.close()
        proc.terminate()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(proc.wait(), 10)
    print(f"  {count:3} live tables: room CPU {bare * 100:5.1f}% of a core without screens, "
          f"{watched * 100:5.1f}% with a watcher at each ({watched / count * 100:.2f}% per "
          f"watched table; {sent / 1024:.1f} KiB/s to each watcher; load "
          f"{os.getloadavg()[0]:.1f})", flush=True)
    return {"tables": count, "bare": bare, "watched": watched}


async def main(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.modes.split(",")
    print(f"SSH card room: sizes {sizes}, {args.busy} busy, {args.seconds:g} s per size, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start "
          "(other work on the machine shows in the latencies)", flush=True)
    results = [await run_mode(m, sizes, args.busy, args.seconds) for m in modes]
    if args.tables:
        print("\nlive tables (in-process; 3 bots and a passive player each, 0.6 s pace):")
        for count in [int(t) for t in args.tables.split(",")]:
            await live_tables(count, args.seconds * 2)
    if len(results) == 2:
        a, b = results
        print("\nper-process / in-process (the same run):")
        for ra, rb in zip(a["rows"], b["rows"]):
            print(f"  {ra['n']:3} sessions: memory per session ×{rb['per_session_mib'] / max(ra['per_session_mib'], 1e-9):.1f}"
                  f" · p95 ×{rb['p95'] / max(ra['p95'], 1e-9):.2f}")
        if "busy" in a and "busy" in b:
            print(f"  {args.busy} busy: p95 ×{b['busy']['p95'] / max(a['busy']['p95'], 1e-9):.2f}")
    first = results[0]
    worst = max(r["per_session_mib"] for r in first["rows"])
    print(f"\naims ({first['mode']}): ≤ 15 MiB per session: {worst:.1f} MiB "
          f"({'met' if worst <= 15 else 'NOT met'})", end="")
    if "busy" in first:
        p95 = first["busy"]["p95"]
        print(f"; p95 ≤ 100 ms at {args.busy} busy sessions: {p95:.1f} ms "
              f"({'met' if p95 <= 100 else 'NOT met'})")
    else:
        print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default="1,10,50")
    parser.add_argument("--busy", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--modes", default="in-process,per-process")
    parser.add_argument("--tables", default="5,10",
                        help="live tables to measure the room's CPU with (\"\": none)")
    parser.add_argument("--serve-tables", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.serve_tables)
    else:
        asyncio.run(main(args))
