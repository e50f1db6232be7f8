"""Admission under attack: does an honest returning player still get in, and quickly?

Run ``python benchmarks/bench_admission.py`` (options: ``--rounds`` joins per scenario,
``--pings`` per join). It starts the real ``pokeroulette host --headless`` command (TLS, as
by default; two bots, the honest player Ana seated and the game started), then for each scenario runs the
attack in this process while Ana leaves and rejoins with her resume token ``--rounds``
times. Each time it measures the join (connect to welcome), and then ``--pings`` ping
round trips on the joined connection. Scenarios, all in the same run, the first being the
reference:

- ``quiet``: no attack;
- ``500 pending``: 500 sockets opened at once that never say hello (re-opened as the host
  closes them);
- ``17 conn/s``: a new silent connection every 60 ms;
- ``ready spam``: eight spectators sending ``ready`` as fast as the socket takes it;
- ``4 join loops``: four loops joining as spectators, reading the catch-up, leaving, again.

Printed: join successes, join time p50 / max, ping p50 / p99, and the ratios against the
quiet reference. The aim (issue 9): the honest player gets in every time within 2 s, and
honest ping p99 stays under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_host(home: str) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "POKEROULETTE_HOME": home}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokeroulette_tui", "host", "--headless", "--bind", "127.0.0.1",
         "--port", "0", "--bots", "2", "--turn-timeout", "0", "--delay", "0.6",
         "--result-pause", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, cwd=ROOT)
    assert proc.stdout is not None
    for _ in range(80):
        line = proc.stdout.readline()
        m = re.search(r"table on 127\.0\.0\.1:(\d+)", line)
        if m:
            return proc, int(m.group(1))
    proc.kill()
    raise SystemExit("the host did not print its address")


class Line:
    """A bare line client."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int, *, tls: bool = True) -> "Line":
        """A connection; with ``tls`` (the table's default) the handshake is done, as a
        client does (a silent attacker skips it: ``tls=False``)."""
        context = None
        if tls:
            sys.path.insert(0, str(ROOT))
            from pokeroulette_tui.net.tls import client_context
            context = client_context()
        r, w = await asyncio.open_connection("127.0.0.1", port, limit=4 * 1024 * 1024,
                                             ssl=context)
        return cls(r, w)

    async def send(self, msg: dict) -> None:
        self.writer.write(json.dumps(msg).encode() + b"\n")
        await self.writer.drain()

    async def recv(self, timeout: float = 10.0) -> dict:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise EOFError
        return json.loads(line)

    async def until(self, kind: str, timeout: float = 10.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            m = await self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == kind:
                return m
            if m["type"] == "error" and m.get("fatal"):
                raise ConnectionError(m["message"])

    def close(self) -> None:
        self.writer.close()


async def seat_ana(port: int) -> str:
    ana = await Line.open(port)
    await ana.send({"type": "hello", "version": 2, "name": "Ana"})
    token = (await ana.until("welcome"))["token"]
    await ana.send({"type": "ready"})
    await ana.send({"type": "start"})
    await ana.until("state")
    ana.close()
    return token


# -- attacks ---------------------------------------------------------------------------------

async def pending(port: int, stop: asyncio.Event, count: int) -> None:
    socks: list[Line] = []

    async def one() -> None:
        while not stop.is_set():
            try:
                s = await Line.open(port, tls=False)  # never even starts the TLS handshake
            except OSError:
                await asyncio.sleep(0.05)
                continue
            socks.append(s)
            try:
                await s.reader.read()  # held until the host closes it
            except (OSError, ConnectionError):
                pass
            s.close()

    tasks = [asyncio.create_task(one()) for _ in range(count)]
    await stop.wait()
    for t in tasks:
        t.cancel()
    for s in socks:
        s.close()


async def churn(port: int, stop: asyncio.Event, per_second: float) -> None:
    socks: list[Line] = []
    while not stop.is_set():
        try:
            socks.append(await Line.open(port, tls=False))
        except OSError:
            pass
        await asyncio.sleep(1 / per_second)
    for s in socks:
        s.close()


async def ready_spam(port: int, stop: asyncio.Event, spammers: int) -> None:
    async def one(i: int) -> None:
        while not stop.is_set():
            try:
                s = await Line.open(port)
                await s.send({"type": "hello", "version": 2, "name": f"Spam{i}", "spectate": True})
                line = json.dumps({"type": "ready"}).encode() + b"\n"
                while not stop.is_set():
                    s.writer.write(line * 50)
                    await s.writer.drain()
                    if s.reader.at_eof():
                        break
                    await asyncio.sleep(0)
            except (OSError, ConnectionError, EOFError):
                await asyncio.sleep(0.05)
    tasks = [asyncio.create_task(one(i)) for i in range(spammers)]
    await stop.wait()
    for t in tasks:
        t.cancel()


async def join_loops(port: int, stop: asyncio.Event, loops: int) -> None:
    async def one(i: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                s = await Line.open(port)
                await s.send({"type": "hello", "version": 2, "name": f"W{i}x{n}",
                              "spectate": True})
                await s.until("state")
                s.close()
            except (OSError, ConnectionError, EOFError, asyncio.TimeoutError):
                await asyncio.sleep(0.05)
    tasks = [asyncio.create_task(one(i)) for i in range(loops)]
    await stop.wait()
    for t in tasks:
        t.cancel()


# -- the honest player -------------------------------------------------------------------------

async def honest(port: int, token: str, rounds: int,
                 pings: int) -> tuple[list, list, int, str, str]:
    joins: list[float] = []
    rtts: list[float] = []
    failed = 0
    why = ""
    for _ in range(rounds):
        t0 = time.perf_counter()
        try:
            s = await Line.open(port)
            await s.send({"type": "hello", "version": 2, "name": "Ana", "token": token})
            w = await s.until("welcome", timeout=5.0)
        except (OSError, ConnectionError, EOFError, asyncio.TimeoutError) as exc:
            failed += 1
            why = why or f"{type(exc).__name__}: {exc}"
            await asyncio.sleep(0.3)
            continue
        joins.append(time.perf_counter() - t0)
        token = w["token"] or token  # a token works once
        for i in range(pings):
            t1 = time.perf_counter()
            await s.send({"type": "ping", "id": i})
            await s.until("pong")
            rtts.append(time.perf_counter() - t1)
            await asyncio.sleep(0.6)  # within the ping rate limit
        s.close()
        await asyncio.sleep(0.2)
    return joins, rtts, failed, why, token


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


ATTACKS = {
    "500 pending": lambda port, stop: pending(port, stop, 500),
    "17 conn/s": lambda port, stop: churn(port, stop, 17),
    "ready spam": lambda port, stop: ready_spam(port, stop, 8),
    "4 join loops": lambda port, stop: join_loops(port, stop, 4),
}


def attack_main(name: str, port: int) -> None:
    """The attack, in a process of its own (so that its work never slows the honest
    client's own event loop, which would be measured as the host's delay)."""
    async def go() -> None:
        await ATTACKS[name](port, asyncio.Event())
    try:
        asyncio.run(go())
    except KeyboardInterrupt:
        pass


async def run(args: argparse.Namespace) -> None:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as home:
        proc, port = start_host(home)
        try:
            token = await seat_ana(port)
            rows = []
            for name in ["quiet", *ATTACKS]:
                attacker = None
                if name != "quiet":
                    attacker = ctx.Process(target=attack_main, args=(name, port), daemon=True)
                    attacker.start()
                    await asyncio.sleep(2.0)  # let the attack build up
                joins, rtts, failed, why, token = await honest(port, token, args.rounds,
                                                               args.pings)
                if attacker is not None:
                    attacker.terminate()
                    attacker.join(10)
                await asyncio.sleep(1.0)
                rows.append((name, joins, rtts, failed, why))
                token = await rejoin_token(port, token)
        finally:
            proc.terminate()
            proc.wait(10)
    base_join = statistics.median(rows[0][1]) if rows[0][1] else float("nan")
    base_ping = pct(rows[0][2], 0.99)
    print(f"{'scenario':14} {'joined':>8} {'join p50':>9} {'join max':>9} {'ping p50':>9} "
          f"{'ping p99':>9}  ratios (join p50, ping p99 vs quiet)")
    for name, joins, rtts, failed, why in rows:
        ok = len(joins)
        p50 = statistics.median(joins) if joins else float("nan")
        print(f"{name:14} {ok:>3}/{ok + failed:<4} {p50 * 1000:>7.1f}ms "
              f"{(max(joins) if joins else float('nan')) * 1000:>7.1f}ms "
              f"{pct(rtts, 0.5) * 1000:>7.2f}ms {pct(rtts, 0.99) * 1000:>7.2f}ms  "
              f"{p50 / base_join:>5.1f}× {pct(rtts, 0.99) / base_ping:>6.1f}×"
              + (f"   first failure: {why}" if why else ""))
    print("aim: every join within 2 s; ping p99 < 50 ms")


async def rejoin_token(port: int, token: str) -> str:
    """The token may have been used in the last round: take the seat once more to be sure
    the next scenario starts with a good one."""
    for _ in range(20):
        try:
            s = await Line.open(port)
            await s.send({"type": "hello", "version": 2, "name": "Ana", "token": token})
            w = await s.until("welcome", timeout=5)
            s.close()
            return w["token"] or token
        except (OSError, ConnectionError, EOFError, asyncio.TimeoutError):
            await asyncio.sleep(0.5)
    raise SystemExit("Ana cannot get back in after the attack")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--pings", type=int, default=5)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
