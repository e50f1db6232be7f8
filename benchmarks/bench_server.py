"""Server load: 10 tables × 5 bot clients over loopback.

Run ``python benchmarks/bench_server.py`` (options: ``--tables``, ``--clients``, ``--seconds``,
``--no-save``, ``--think`` seconds before each bot action, ``--pace`` seconds between a
table's actions on average, ``--procs`` server processes). The servers run in one child
process (one event loop, like one ``pokeroulette host`` per table sharing a machine); the bot
clients run in this process as light line clients (JSON only), so the numbers are the
server's. With and without saving, the same things are counted:

- client actions (what the bot clients sent and the servers played) and every action the
  servers applied (dealer steps too, counted by the servers themselves);
- the server's CPU time (user + system, from /proc) divided by the client actions: the host
  CPU per client action, dealer steps, views and the journal included;
- action→update latency: from a client writing an action to it reading the state that
  action produced, p50 / p99 / max;
- the server process's resident memory (VmRSS now and VmHWM peak), and per table;

``--tables 100 --pace 2`` is a hundred tables at one client action per 2 s each (each bot
waits 0.5–1.5 × the pace before acting, so the tables do not act in step).
- two references measured in the same run: the engine alone (Table.apply in a loop, no
  network, no saving) and a loopback ping round trip to the same servers, printed as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pokeroulette_tui.engine.rules import RuleSet  # noqa: E402
from pokeroulette_tui.net import protocol as P  # noqa: E402

RULES = RuleSet(suit_order="SHDC", starting_chips=1_000_000)


# -- the server process -------------------------------------------------------------------

async def serve(tables: int, folder: str | None, first: int = 0) -> None:
    from pokeroulette_tui.net.host import HostConfig, TableHost
    from pokeroulette_tui.net.server import Server

    servers, hosts = [], []
    for t in range(first, first + tables):
        save = Path(folder) / f"table-{t}.json" if folder else None
        host = TableHost(HostConfig(rules=RULES, seed=1000 + t, save_path=save, turn_timeout=60,
                                    delay=0.0, hand_pause=0.0))
        server = Server(host)
        _, port = await server.start("127.0.0.1", 0)
        servers.append(server)
        hosts.append(host)
        print(port, flush=True)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes it
    # every action the servers applied (dealer steps too), counted the same way saving or not
    print("applied", sum(len(h.table.actions) for h in hosts if h.table is not None), flush=True)
    for s in servers:
        await s.close()


# -- bot clients ------------------------------------------------------------------------------

class BotClient:
    """A bot at a remote table: random but mostly passive choices; times each action."""

    def __init__(self, name: str, seed: int, think: float = 0.0, pace: float = 0.0) -> None:
        self.name = name
        self.think = think
        self.pace = pace
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.welcomed = asyncio.Event()
        self.version = 0
        self.ids = 0
        self.sent_at: float | None = None
        self.sent_version = 0
        self.latencies: list[float] = []
        self.actions = 0  # since the measuring began
        self.total = 0    # since the start

    async def run(self, port: int, start: asyncio.Event, stop: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=P.CLIENT_MAX_LINE)
        writer.write(P.encode({"type": "hello", "version": 1, "name": self.name}))
        await writer.drain()
        while self.seat is None:  # seated before anyone is ready (else a table may start early)
            msg = json.loads(await reader.readline())
            if msg["type"] == "welcome":
                self.seat = msg["seat"]
        self.welcomed.set()
        await start.wait()
        writer.write(P.encode({"type": "ready", "ready": True}))
        await writer.drain()
        try:
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    return
                msg = json.loads(line)
                kind = msg["type"]
                if kind == "welcome":
                    self.seat = msg["seat"]
                if kind != "state":
                    continue
                now = time.perf_counter()
                self.version = msg["version"]
                if self.sent_at is not None and self.version > self.sent_version:
                    self.latencies.append(now - self.sent_at)
                    self.sent_at = None
                view = msg["view"]
                if view["game_over"]:
                    return
                if view["to_act"] == self.seat and not view["dealer_step"] and self.sent_at is None:
                    action = self.choose(view)
                    if action is not None and self.think:
                        await asyncio.sleep(self.think)  # a bot that takes a moment to decide
                    if action is not None and self.pace:
                        await asyncio.sleep(self.pace * self.rng.uniform(0.5, 1.5))
                    if action is not None:
                        self.ids += 1
                        self.sent_version = self.version
                        self.sent_at = time.perf_counter()
                        self.actions += 1
                        self.total += 1
                        writer.write(P.encode({"type": "act", "id": self.ids,
                                               "version": self.version, "action": action}))
                        await writer.drain()
        finally:
            writer.close()

    def choose(self, view: dict) -> dict | None:
        r = self.rng
        phase = view["phase"]
        if phase == "betting":
            o = view["options"]
            if o["bet_min"] and r.random() < 0.15:
                return {"type": "bet", "amount": o["bet_min"]}
            if o["raise_min"] and r.random() < 0.05:
                return {"type": "raise", "amount": o["raise_min"]}
            if o["check"]:
                return {"type": "check"}
            if o["call"] and r.random() < 0.8:
                return {"type": "call"}
            return {"type": "fold"}
        if phase == "stock_to_active":
            return {"type": "stock_to_active", "index": None}
        if phase == "draw":
            return {"type": "discard", "indices": r.sample(range(5), r.randint(0, 3))}
        if phase == "cut":
            return {"type": "cut", "position": r.randint(1, view["deck_count"] - 1)}
        return None


async def ping_rtt(port: int, n: int = 300) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(P.encode({"type": "hello", "version": 1, "name": "Pinger", "spectate": True}))
    await writer.drain()
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        writer.write(P.encode({"type": "ping", "id": i}))
        await writer.drain()
        while True:
            msg = json.loads(await reader.readline())
            if msg["type"] == "pong":
                break
        out.append(time.perf_counter() - t0)
    writer.close()
    return out


def engine_alone(seconds: float) -> float:
    """Actions per second of the engine with the same rules and a passive policy."""
    from pokeroulette_tui.engine.actions import Call, Check, Fold
    from pokeroulette_tui.table import SeatConfig, Table

    table = Table.create(RULES, [SeatConfig(f"P{i}") for i in range(5)], seed=1)
    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        a = table.auto_action()
        if a is None:
            seat = table.waiting_for_human()
            if seat is None:
                break
            legal = table.legal(seat)
            a = next((x for x in legal if isinstance(x, (Check, Call))), None) or Fold(seat=seat)
        table.apply(a)
        n += 1
    return n / seconds


def rss(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    mib = lambda k: int(fields.get(k, "0 kB").split()[0]) / 1024  # noqa: E731
    return mib("VmRSS"), mib("VmHWM")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def drive(args: argparse.Namespace) -> int:
    folder = None if args.no_save else tempfile.mkdtemp(prefix="bench-tables-")
    procs, ports = [], []
    for k in range(args.procs):  # tables split over server processes (one event loop each)
        share = args.tables // args.procs + (1 if k < args.tables % args.procs else 0)
        cmd = [sys.executable, __file__, "--serve", "--tables", str(share), "--first", str(len(ports))]
        if folder:
            cmd += ["--dir", folder]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        while True:
            line = proc.stdout.readline().strip()
            if line == "ready":
                break
            ports.append(int(line))
        procs.append(proc)
    hwm_idle = sum(rss(p.pid)[1] for p in procs)
    pings = await ping_rtt(ports[0])
    start, stop = asyncio.Event(), asyncio.Event()
    bots = [BotClient(f"Bot{t}-{c}", seed=t * 100 + c, think=args.think, pace=args.pace)
            for t in range(args.tables) for c in range(args.clients)]
    tasks = [asyncio.create_task(b.run(ports[i // args.clients], start, stop))
             for i, b in enumerate(bots)]
    await asyncio.wait_for(asyncio.gather(*(b.welcomed.wait() for b in bots)), 60)
    start.set()  # everyone is seated: all say they are ready, the games start
    await asyncio.sleep(args.warmup)  # measure play, not the lobby and the first deal
    t0 = time.perf_counter()
    cpu0, load0, mine0 = (sum(cpu_seconds(p.pid) for p in procs), os.getloadavg()[0],
                          time.process_time())
    for b in bots:
        b.latencies.clear()
        b.actions = 0
    await asyncio.sleep(args.seconds)
    # the counts and the CPU time over the same moment (bots stop acting first)
    stop.set()
    server_cpu_s = sum(cpu_seconds(p.pid) for p in procs) - cpu0
    elapsed = time.perf_counter() - t0
    client_actions = sum(b.actions for b in bots)
    server_cpu = server_cpu_s / elapsed
    client_cpu = (time.process_time() - mine0) / elapsed
    now_rss = sum(rss(p.pid)[0] for p in procs)
    peak_rss = sum(rss(p.pid)[1] for p in procs)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    applied = 0
    for p in procs:
        p.stdin.close()
        for line in p.stdout:
            if line.startswith("applied "):
                applied += int(line.split()[1])
        p.wait(15)
    journal_bytes = sum(f.stat().st_size for f in Path(folder).glob("table-*.json")) if folder else 0
    lat = [x for b in bots for x in b.latencies]
    client_total = sum(b.total for b in bots)
    ref = engine_alone(3.0)

    print(f"tables {args.tables} × {args.clients} bot clients over loopback, {elapsed:.1f} s, "
          f"{args.procs} server process{'es' if args.procs > 1 else ''} (after {args.warmup:g} s of play), "
          f"saving after every action: {'yes' if folder else 'no'}, bots think "
          f"{args.think * 1000:.0f} ms, pace {args.pace:g} s  (cpus: {os.cpu_count()})")
    print(f"  client actions:        {client_actions} ({client_actions / elapsed:,.0f}/s)")
    print(f"  all actions applied:   {applied} since the start (dealer steps included), "
          f"{applied / max(1, client_total):.2f} per client action")
    if folder:
        print(f"  saves on disk:         {journal_bytes / 1024:,.0f} KiB in {args.tables} files")
    print(f"  action→update latency: p50 {pct(lat, .5):.2f} ms · p99 {pct(lat, .99):.2f} ms · "
          f"max {max(lat) * 1000:.1f} ms  ({len(lat)} samples)")
    print(f"  server RSS:            {now_rss:.1f} MiB now, {peak_rss:.1f} MiB peak "
          f"({hwm_idle:.1f} MiB before play{', summed' if args.procs > 1 else ''}; "
          f"{(now_rss - hwm_idle) * 1024 / args.tables:,.0f} KiB a table over that)")
    print(f"  server CPU:            {server_cpu:.0%} of one core, "
          f"{server_cpu_s * 1000 / max(1, client_actions):.3f} ms per client action "
          f"(process CPU time / client actions); machine load average at start {load0:.1f}")
    print(f"  bot clients' CPU:      {client_cpu:.0%} of one core (all {len(bots)} in this process)")
    print("references measured in this run:")
    per_table = client_actions / elapsed / args.tables
    print(f"  engine alone (Table.apply, no network, no save): {ref:,.0f} actions/s, "
          f"{1000 / ref:.3f} ms each → host CPU per client action = "
          f"{server_cpu_s / max(1, client_actions) * ref:.1f}× an engine step "
          f"(each table plays {per_table:.1f} client actions/s)")
    p50_ping = statistics.median(pings) * 1000
    print(f"  loopback ping round trip: p50 {p50_ping:.3f} ms → latency p50 = "
          f"{pct(lat, .5) / p50_ping:.1f}× a ping, p99 = {pct(lat, .99) / p50_ping:.1f}× a ping")
    goal = args.goal if args.goal is not None else (20.0 if args.pace else 50.0)
    verdict = "met" if pct(lat, .99) < goal else "NOT met"
    print(f"  p99 target (< {goal:g} ms on this machine): {verdict}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--clients", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--no-save", action="store_true", help="do not save after every action")
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds a bot client waits before acting (default 0: as fast as it can)")
    ap.add_argument("--warmup", type=float, default=2.0,
                    help="seconds of play before measuring (the games start meanwhile)")
    ap.add_argument("--pace", type=float, default=0.0,
                    help="seconds between a table's client actions on average (default 0: "
                         "as fast as they can); e.g. --tables 100 --pace 2")
    ap.add_argument("--goal", type=float, default=None,
                    help="the p99 goal in ms (default 50, or 20 with --pace)")
    ap.add_argument("--procs", type=int, default=1,
                    help="server processes to split the tables over (default 1: one event loop)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--dir", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        if os.environ.get("BENCH_PROFILE"):  # write a cProfile of the server to this file
            import cProfile
            cProfile.runctx("asyncio.run(serve(args.tables, args.dir, args.first))", globals(),
                            locals(), os.environ["BENCH_PROFILE"])
        else:
            asyncio.run(serve(args.tables, args.dir, args.first))
        return 0
    return asyncio.run(drive(args))


if __name__ == "__main__":
    sys.exit(main())
