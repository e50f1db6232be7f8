"""Server load: 10 tables × 5 bot clients over loopback, with the journal and without.

Run ``python benchmarks/bench_server.py`` (options: ``--tables``, ``--clients``, ``--seconds``,
``--rounds``, ``--think`` seconds before each bot action, ``--pace`` seconds between a table's
actions on average, ``--procs`` server processes, ``--mode journal|none|both|deltas``,
``--no-tls``; ``--mode deltas`` plays the journal's runs against the same with the clients
asking for state deltas, and "state bytes sent" is what the clients read of state lines).
Every connection is TLS, as a host serves by default (``--no-tls``: plain TCP). The servers run
in child processes (one event loop each, like ``pokeroulette host`` per table sharing a
machine); the bot clients run in this process as light line clients (JSON only), so the
figures are the server's. Each round plays the same tables (same seeds, same bots) once with
the journal (every action written and fsync'd before anyone is told) and once without
(``none``), in alternating order, and the same things are counted for both:

- client actions: what the bot clients sent and the servers played, in the measured window;
- every action the servers applied in that window (dealer steps too), as the servers count it;
- the server processes' CPU time (user + system, from /proc) over that window divided by the
  client actions: the host CPU per client action, dealer steps, views and the journal
  included; and the same over the first seconds of play (``cold``: the games start, the
  first checkpoints and deals) apart from the measured window (``warm``);
- action→update latency: from a client writing an action to it reading the state that
  action produced, p50 / p99 / max;
- disk writes: group commits and fdatasync calls per client action (journal only);
- the server processes' resident memory (VmRSS now and VmHWM peak), and per table.

It ends with the ratios journal / none from the same run, and two references measured in
the same run: the engine alone (Table.apply in a loop, no network, no saving) and a loopback
ping round trip to the same servers. ``--tables 100 --pace 2`` is a hundred tables at one
client action per 2 s each (each bot waits 0.5–1.5 × the pace before acting, so the tables
do not act in step).
"""

from __future__ import annotations

import argparse
import atexit
import asyncio
import json
import os
import random
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pokeroulette_tui.engine.rules import RuleSet  # noqa: E402
from pokeroulette_tui.net import protocol as P  # noqa: E402

RULES = RuleSet(suit_order="SHDC", starting_chips=1_000_000)


# -- the server process -------------------------------------------------------------------

def _client_ssl(tls: bool) -> Any:
    if not tls:
        return None
    from pokeroulette_tui.net.tls import client_context
    return client_context()


async def serve(tables: int, folder: str | None, first: int = 0, tls: bool = True) -> None:
    from pokeroulette_tui.net.host import HostConfig, TableHost
    from pokeroulette_tui.net.server import Server
    try:
        from pokeroulette_tui.net.server import GroupCommit
    except ImportError:  # an older server (to compare with): no counts of disk writes
        GroupCommit = None

    servers, hosts = [], []
    context = None
    if tls:  # as a host serves by default: its own certificate, made once in a temporary folder
        from pokeroulette_tui.net.tls import host_identity, server_context
        tls_dir = tempfile.mkdtemp(prefix="bench-tls-")
        atexit.register(shutil.rmtree, tls_dir, True)
        context = server_context(host_identity(Path(tls_dir)))
    for t in range(first, first + tables):
        save = Path(folder) / f"table-{t}.json" if folder else None
        host = TableHost(HostConfig(rules=RULES, seed=1000 + t, save_path=save, turn_timeout=60,
                                    delay=0.0, hand_pause=0.0, start_countdown=0.0))
        server = Server(host)
        _, port = await server.start("127.0.0.1", 0, ssl=context)
        servers.append(server)
        hosts.append(host)
        print(port, flush=True)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    group = GroupCommit.of(loop) if GroupCommit is not None else None
    while True:  # "count": what was applied and written so far; end of input: stop
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        applied = sum(len(h.table.actions) for h in hosts if h.table is not None)
        groups, syncs = (group.groups, group.syncs) if group is not None else (0, 0)
        threaded = getattr(group, "threaded", 0)
        print(f"count {applied} {groups} {syncs} {threaded}", flush=True)
    for s in servers:
        await s.close()


# -- bot clients ------------------------------------------------------------------------------

class BotClient:
    """A bot at a remote table: random but mostly passive choices; times each action."""

    def __init__(self, name: str, seed: int, think: float = 0.0, pace: float = 0.0,
                 tls: bool = True, deltas: bool = False) -> None:
        self.name = name
        self.tls = tls
        self.deltas = deltas  # asks for state deltas and applies them, as RemoteSession does
        self.view: dict | None = None
        self.serial: int | None = None
        self.received = 0  # bytes of state lines read
        self.lines = 0     # state lines read
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
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=P.CLIENT_MAX_LINE,
                                                       ssl=_client_ssl(self.tls))
        hello = {"type": "hello", "version": P.VERSION, "name": self.name}
        if self.deltas:
            hello["deltas"] = True
        writer.write(P.encode(hello))
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
                self.received += len(line)
                self.lines += 1
                if "base" in msg:  # a delta: what changed since the line ``base``
                    if self.view is None or msg["base"] != self.serial:
                        raise RuntimeError(f"{self.name}: a delta on {msg['base']} after "
                                           f"{self.serial}")
                    view = {**self.view, **msg["view"]}
                    if msg["players"]:
                        view["players"] = list(view["players"])
                        for i, entry in msg["players"]:
                            view["players"][i] = {**view["players"][i], **entry}
                else:
                    view = msg["view"]
                self.view, self.serial = view, msg.get("serial")
                now = time.perf_counter()
                self.version = msg["version"]
                if self.sent_at is not None and self.version > self.sent_version:
                    self.latencies.append(now - self.sent_at)
                    self.sent_at = None
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


async def ping_rtt(port: int, n: int = 9, conns: int = 2, tls: bool = True) -> list[float]:
    """Loopback round trips of a ``ping`` (a host answers at most 10 at once per connection,
    then 2 a second: ``n`` pings on each of ``conns`` watcher connections)."""
    out = []
    for k in range(conns):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=_client_ssl(tls))
        writer.write(P.encode({"type": "hello", "version": P.VERSION, "name": f"Pinger{k}",
                               "spectate": True}))
        await writer.drain()
        for i in range(n):
            t0 = time.perf_counter()
            writer.write(P.encode({"type": "ping", "id": i}))
            await writer.drain()
            while True:
                msg = json.loads(await reader.readline())
                if msg["type"] == "pong":
                    break
                if msg["type"] == "error":
                    raise SystemExit(f"the ping was refused: {msg['message']}")
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


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


class Servers:
    """The server processes of one run: their ports, CPU times and counts."""

    def __init__(self, args: argparse.Namespace, journal: bool) -> None:
        self.folder = tempfile.mkdtemp(prefix="bench-tables-") if journal else None
        self.procs: list[subprocess.Popen[str]] = []
        self.ports: list[int] = []
        for k in range(args.procs):  # tables split over server processes (one event loop each)
            share = args.tables // args.procs + (1 if k < args.tables % args.procs else 0)
            cmd = [sys.executable, __file__, "--serve", "--tables", str(share),
                   "--first", str(len(self.ports))]
            if self.folder:
                cmd += ["--dir", self.folder]
            if not args.tls:
                cmd += ["--no-tls"]
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            while True:
                line = proc.stdout.readline().strip()
                if line == "ready":
                    break
                self.ports.append(int(line))
            self.procs.append(proc)

    def cpu(self) -> tuple[float, float]:
        """User and system CPU seconds of the server processes so far."""
        user = system = 0.0
        for p in self.procs:
            parts = Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
            user += int(parts[11]) / os.sysconf("SC_CLK_TCK")
            system += int(parts[12]) / os.sysconf("SC_CLK_TCK")
        return user, system

    def counts(self) -> tuple[int, int, int, int]:
        """Actions applied, group commits, fdatasync calls and groups written in worker
        threads so far (all processes)."""
        total = [0, 0, 0, 0]
        for p in self.procs:
            p.stdin.write("count\n")
            p.stdin.flush()
        for p in self.procs:
            fields = p.stdout.readline().split()
            for i in range(4):
                total[i] += int(fields[1 + i])
        return total[0], total[1], total[2], total[3]

    def rss(self) -> tuple[float, float]:
        now = peak = 0.0
        for p in self.procs:
            n, h = rss(p.pid)
            now, peak = now + n, peak + h
        return now, peak

    def stop(self) -> int:
        """Stop the servers; the journal bytes on disk."""
        for p in self.procs:
            p.stdin.close()
        for p in self.procs:
            p.wait(30)
        if not self.folder:
            return 0
        size = sum(f.stat().st_size for f in Path(self.folder).glob("table-*.json"))
        shutil.rmtree(self.folder, ignore_errors=True)  # (tens of MB a run otherwise left in /tmp)
        return size


class Window:
    """CPU, counts and client actions at one moment, to subtract."""

    def __init__(self, servers: Servers, bots: list[BotClient]) -> None:
        self.t = time.perf_counter()
        self.user, self.system = servers.cpu()
        self.applied, self.groups, self.syncs, self.threaded = servers.counts()
        self.actions = sum(b.total for b in bots)
        self.received = sum(b.received for b in bots)
        self.lines = sum(b.lines for b in bots)


async def play(args: argparse.Namespace, journal: bool, deltas: bool = False
               ) -> dict[str, float]:
    """One run of the tables with or without the journal (and with the clients asking for
    state deltas or not); its figures."""
    servers = Servers(args, journal)
    hwm_idle = servers.rss()[1]
    pings = await ping_rtt(servers.ports[0], tls=args.tls)
    start, stop = asyncio.Event(), asyncio.Event()
    bots = [BotClient(f"Bot{t}-{c}", seed=t * 100 + c, think=args.think, pace=args.pace,
                      tls=args.tls, deltas=deltas)
            for t in range(args.tables) for c in range(args.clients)]
    tasks = [asyncio.create_task(b.run(servers.ports[i // args.clients], start, stop))
             for i, b in enumerate(bots)]
    await asyncio.wait_for(asyncio.gather(*(b.welcomed.wait() for b in bots)), 60)
    w0 = Window(servers, bots)
    start.set()  # everyone is seated: all say they are ready, the games start
    await asyncio.sleep(args.warmup)  # cold: the games start, first checkpoints and deals
    w1 = Window(servers, bots)
    for b in bots:
        b.latencies.clear()
    mine0 = time.process_time()
    await asyncio.sleep(args.seconds)
    stop.set()  # the counts and the CPU time over the same moment (bots stop acting first)
    w2 = Window(servers, bots)
    client_cpu = (time.process_time() - mine0) / (w2.t - w1.t)
    now_rss, peak_rss = servers.rss()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    journal_bytes = servers.stop()
    lat = [x for b in bots for x in b.latencies]
    elapsed = w2.t - w1.t
    warm = max(1, w2.actions - w1.actions)
    cold = max(1, w1.actions - w0.actions)
    return {
        "elapsed": elapsed, "actions": w2.actions - w1.actions,
        "rate": (w2.actions - w1.actions) / elapsed,
        "applied": (w2.applied - w1.applied) / warm,
        "cpu": (w2.user + w2.system - w1.user - w1.system) * 1000 / warm,
        "user": (w2.user - w1.user) * 1000 / warm, "sys": (w2.system - w1.system) * 1000 / warm,
        "load": (w2.user + w2.system - w1.user - w1.system) / elapsed,
        "cold": (w1.user + w1.system - w0.user - w0.system) * 1000 / cold,
        "groups": (w2.groups - w1.groups) / warm, "syncs": (w2.syncs - w1.syncs) / warm,
        "threaded": (w2.threaded - w1.threaded) / max(1, w2.groups - w1.groups),
        "p50": pct(lat, .5), "p99": pct(lat, .99), "max": max(lat, default=0) * 1000,
        "samples": len(lat), "rss": now_rss, "peak": peak_rss,
        "per_table": (now_rss - hwm_idle) * 1024 / args.tables,
        "sent": (w2.received - w1.received) / warm,
        "lines": (w2.lines - w1.lines) / warm / args.clients,
        "bytes": journal_bytes, "client_cpu": client_cpu, "ping": statistics.median(pings) * 1000,
    }


async def drive(args: argparse.Namespace) -> int:
    modes = {"both": ["journal", "none"], "journal": ["journal"], "none": ["none"],
             "deltas": ["journal", "deltas"]}[args.mode]
    runs: dict[str, list[dict[str, float]]] = {m: [] for m in modes}
    for r in range(args.rounds):
        for mode in (modes if r % 2 == 0 else modes[::-1]):  # alternate the order
            runs[mode].append(await play(args, mode != "none", deltas=mode == "deltas"))
    ref = engine_alone(3.0)
    med = {m: {k: statistics.median(run[k] for run in rs) for k in rs[0]} for m, rs in runs.items()}

    from pokeroulette_tui.net import loop as server_loop  # (POKEROULETTE_LOOP=asyncio: asyncio's)
    print(f"{args.tables} tables × {args.clients} bot clients over loopback "
          f"({'TLS' if args.tls else 'plain TCP, no TLS'}), {args.seconds:g} s "
          f"measured after {args.warmup:g} s of play, {args.rounds} round(s) "
          f"(medians), {args.procs} server process{'es' if args.procs > 1 else ''} "
          f"on {server_loop.name()}'s event loop, "
          f"bots think {args.think * 1000:.0f} ms, pace {args.pace:g} s  "
          f"(cpus: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f})")
    rows = [
        ("client actions/s", "rate", "{:,.0f}"),
        ("applied per client action", "applied", "{:.2f}"),
        ("host CPU ms/client action", "cpu", "{:.3f}"),
        ("  of which user / system", None, None),
        ("  cold (first seconds)", "cold", "{:.3f}"),
        ("server CPU (cores)", "load", "{:.2f}"),
        ("latency p50 ms", "p50", "{:.2f}"),
        ("latency p99 ms", "p99", "{:.2f}"),
        ("latency max ms", "max", "{:.1f}"),
        ("state bytes sent/client action", "sent", "{:,.0f}"),
        ("  state lines a client/client action", "lines", "{:.2f}"),
        ("disk groups/client action", "groups", "{:.2f}"),
        ("fdatasync/client action", "syncs", "{:.2f}"),
        ("groups written in threads", "threaded", "{:.0%}"),
        ("server RSS MiB now / peak", None, None),
        ("RSS KiB per table", "per_table", "{:,.0f}"),
    ]
    print(f"  {'':28}" + "".join(f"{m:>16}" for m in modes)
          + (f"{modes[0] + '/' + modes[1]:>16}" if len(modes) == 2 else ""))
    for label, key, fmt in rows:
        cells = []
        for m in modes:
            d = med[m]
            if label.startswith("  of which"):
                cells.append(f"{d['user']:.3f} / {d['sys']:.3f}")
            elif label.startswith("server RSS"):
                cells.append(f"{d['rss']:.1f} / {d['peak']:.1f}")
            else:
                cells.append(fmt.format(d[key]))
        ratio = ""
        if len(modes) == 2 and key in ("cpu", "cold", "p50", "p99", "rate", "load", "sent"):
            ratio = f"{med[modes[0]][key] / med[modes[1]][key]:15.2f}×"
        print(f"  {label:28}" + "".join(f"{c:>16}" for c in cells) + f"{ratio:>16}")
    if args.rounds > 1:
        for label, key in (("host CPU ms/client action", "cpu"), ("latency p99 ms", "p99")):
            print(f"  {label + ', runs':28}" + "".join(
                f"{min(r[key] for r in runs[m]):>8.2f}–{max(r[key] for r in runs[m]):<7.2f}"
                for m in modes))
    if "deltas" in med:
        print("  deltas: the same tables, journal on, the clients asking for state deltas "
              "(docs/PROTOCOL.md §4)")
    if "journal" in med:
        print(f"  journal on disk: {med['journal']['bytes'] / 1024:,.0f} KiB "
              f"in {args.tables} files")
    first = med[modes[0]]
    print(f"  bot clients' CPU: {first['client_cpu']:.0%} of one core "
          f"(all {args.tables * args.clients} in this process)")
    print("references measured in this run:")
    print(f"  engine alone (Table.apply, no network, no save): {ref:,.0f} actions/s, "
          f"{1000 / ref:.3f} ms each → host CPU per client action = "
          + ", ".join(f"{med[m]['cpu'] / 1000 * ref:.1f}× an engine step ({m})" for m in modes))
    ping = statistics.median(med[m]["ping"] for m in modes)
    print(f"  loopback ping round trip: p50 {ping:.3f} ms → "
          + ", ".join(f"latency p99 = {med[m]['p99'] / ping:.0f}× a ping ({m})" for m in modes))
    goal = args.goal if args.goal is not None else (20.0 if args.pace else 50.0)
    for m in modes:
        verdict = "met" if med[m]["p99"] < goal else "NOT met"
        print(f"  p99 target (< {goal:g} ms on this machine), {m}: {verdict}")
    cpu_goal = 0.6
    for m in modes:
        if m != "none":
            verdict = "met" if med[m]["cpu"] <= cpu_goal else "NOT met"
            print(f"  host CPU target (≤ {cpu_goal} ms per client action, journal on), {m}: "
                  f"{verdict}")
    return 0


def views(actions: int, seats: int = 5, seed: int = 1) -> int:
    """``--views``: the state lines of one broadcast, in-process, against the plain way in the
    same loop. Each step of a seeded game (passive players, as the bot clients play) is sent
    to ``seats`` seats both ways, timed alternately on the same state (so a busy machine
    slows both alike): :class:`~pokeroulette_tui.net.wire.StateMessages` (the public part
    built once, each seat's own entry spliced in) and, per seat, ``view_for(state, seat)``,
    ``to_dict()`` and ``json.dumps`` with the committer's openings of everything shown (what
    each seat's line would be if built on its own). Thread CPU time; the lines of both are
    checked equal as JSON. Third, timed the same way: the same broadcast as deltas (every seat
    asked for them, docs/PROTOCOL.md §4), each applied to that seat's last view and checked
    equal to its whole line's view."""
    from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
    from pokeroulette_tui.engine.view import view_for
    from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
    from pokeroulette_tui.net.wire import StateMessages

    g = new_game(RULES, [f"P{i}" for i in range(seats)], seed=seed)
    install_tracking(g)
    nonces = lambda rng: (lambda n: rng.randbytes(n))  # noqa: E731 - the same nonces both ways
    fast, plain = DeckCommitter(nonces(random.Random(seed))), \
        DeckCommitter(nonces(random.Random(seed)))
    third = DeckCommitter(nonces(random.Random(seed)))
    msgs, dmsgs = StateMessages(), StateMessages()
    delta_time = 0.0
    delta_size = 0
    last: dict[int, dict] = {}
    rng = random.Random(seed)
    events: list = []
    spliced = alone = 0.0
    size = 0
    clock = time.thread_time
    who = list(range(seats))
    rules = RULES.to_dict()
    for step in range(actions):
        kept = list(g.rng.reshuffled)  # both committers see the same reshuffles
        fast.refresh(g)
        g.rng.reshuffled[:] = kept
        plain.refresh(g)
        g.rng.reshuffled[:] = kept
        third.refresh(g)
        head = {"type": "state", "version": step}
        tail = {"deadline_in": None, "next_deal_in": None, "turn": g.to_act, "seats": []}
        for order in ((0, 1, 2) if step % 2 else (2, 1, 0)):
            t0 = clock()
            if order == 0:
                lines = msgs.build(g, who, events, head, tail, fast)
                spliced += clock() - t0
            elif order == 2:
                deltas: dict = {}
                dmsgs.build(g, [], events, head, tail, third, deltas=who, track=True,
                            delta_out=deltas)
                delta_time += clock() - t0
            else:
                own = {}
                for seat in who:
                    v = view_for(g, seat)
                    shown = [e.redacted_for(seat) for e in events]
                    d = v.to_dict()
                    del d["rules"]  # (the lobby carries them)
                    own[seat] = P.encode({**head, "view": d,
                                          "events": [e.to_dict() for e in shown],
                                          "reveals": plain.reveal(seat, v.all_cards() + [
                                              c for e in shown for c in e.cards]), **tail})
                alone += clock() - t0
        for seat in who:
            a, b = json.loads(lines[seat]), json.loads(own[seat])
            del a["serial"]
            assert a == b, f"step {step}, seat {seat}: the lines differ"
            d = json.loads(deltas[seat])
            if "base" in d:
                view = {**last[seat], **d["view"]}
                view["players"] = [dict(p) for p in view["players"]]
                for i, fields in d["players"]:
                    view["players"][i].update(fields)
            else:
                view = d["view"]
            assert view == a["view"], f"step {step}, seat {seat}: the delta differs"
            last[seat] = view
        size += sum(map(len, lines.values()))
        delta_size += sum(map(len, deltas.values()))
        if g.game_over:
            break
        legal = legal_actions(g, None if dealer_to_act(g) else g.to_act)
        passive = [a for a in legal if a.kind in ("check", "call")] or \
            [a for a in legal if a.kind not in ("fold", "leave", "all_in", "bet", "raise")] \
            or legal
        events = apply(g, rng.choice(passive))
    n = step + 1
    print(f"state lines for {seats} seats, {n:,} steps of one seeded game (thread CPU, the "
          f"two ways timed alternately on the same state; cpus {os.cpu_count()}, load average "
          f"{os.getloadavg()[0]:.1f}); rules sent once, in the lobby: {len(json.dumps(rules))} "
          "bytes a line saved")
    print(f"  public part once, own entries spliced: {spliced / n * 1e6:8.1f} µs per step")
    print(f"  each seat's view built alone:          {alone / n * 1e6:8.1f} µs per step  "
          f"(reference)")
    print(f"  the same as deltas:                    {delta_time / n * 1e6:8.1f} µs per step")
    print(f"  ratio: {spliced / alone:.2f}×; {size / n / seats:,.0f} bytes per seat's line; "
          "the lines are equal as JSON")
    print(f"  deltas / whole lines: {delta_time / spliced:.2f}× the time, "
          f"{delta_size / size:.2f}× the bytes ({delta_size / n / seats:,.0f} bytes per seat's "
          "line); every delta applied gives the whole line's view")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--clients", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=1,
                    help="runs of each mode, alternating their order (medians are shown)")
    ap.add_argument("--mode", choices=("both", "journal", "none", "deltas"), default="both",
                    help="with the journal, without, or both side by side (default); "
                         "deltas: with the journal, whole views against clients that ask for "
                         "state deltas, side by side")
    ap.add_argument("--no-save", action="store_true", help="the same as --mode none")
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
    ap.add_argument("--no-tls", dest="tls", action="store_false",
                    help="plain TCP on both sides (hosts use TLS by default, and so does this)")
    ap.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--views", type=int, default=0, metavar="STEPS",
                    help="instead: the state lines of a broadcast in-process, built once for "
                         "all seats against each seat's view built alone, over STEPS steps")
    args = ap.parse_args()
    if args.views:
        return views(args.views, args.clients)
    if args.no_save:
        args.mode = "none"
    if args.serve:
        if os.environ.get("BENCH_PROFILE"):  # write a cProfile of the server to this file
            import cProfile
            out = f"{os.environ['BENCH_PROFILE']}.{'journal' if args.dir else 'none'}"
            cProfile.runctx("asyncio.run(serve(args.tables, args.dir, args.first, args.tls))",
                            globals(),
                            locals(), out)
        else:
            from pokeroulette_tui.net import loop as server_loop  # (as the real host runs)
            server_loop.run(serve(args.tables, args.dir, args.first, args.tls))
        return 0
    return asyncio.run(drive(args))


if __name__ == "__main__":
    sys.exit(main())
