"""Start-up and key latency of the real command, against a bare Textual app in the same run.

Usage::

    python benchmarks/bench_startup.py [--quick] [--runs N] [--no-bytecode-runs M]
                                       [--profile] [--no-headless] [--think S]

The user's path, timed in a pseudo-terminal (80x24, ``TERM=xterm-256color``), every run a
fresh process; both sides are launched the same way and timed to their first interactive
frame, which is read off the terminal output (escape sequences stripped):

* **bare app** — ``python benchmarks/bare_app.py``: a Textual app with one Static and a
  footer. Interactive when its footer (``x Change``, ``q Quit``) has been drawn.
* **new table** — ``pokeroulette`` (the installed console script, so the command line,
  the settings, the start screen and the autosave all run) with ``POKEROULETTE_HOME`` a
  fresh empty folder: the start screen is up when its footer is drawn; then Enter is sent
  at once (no think time), and the table is interactive when the table screen's footer
  (``? Help``, ``l Leave``) has been drawn.
* **resume** — the same with an autosave present (a game played for a moment, copied
  into a fresh folder each run): the start screen offers it, Enter resumes it.

Reported: the **first run** of each (the first launch in this benchmark, separately),
**warm** (median of N runs, interleaved so machine noise hits all alike), and **cold
without bytecode caches** (``PYTHONPYCACHEPREFIX`` an empty folder, so every module,
standard library included, is compiled from source, on both sides alike), with the
ratios to the bare app. Target: the new table within 1.5x the bare app.

Key to screen, in the same terminals: ``?`` opening the help at the table, against ``x``
changing the bare app's text (p50 and p95). ``--no-headless`` skips the older in-process
figures (``headless_keys.py``: ``?`` and ``c`` at a headless table). ``--think S`` adds
Enter-to-table after S seconds on the start screen (the figures above press Enter at once,
so they include loading the table, which the start screen otherwise does while a player
reads it). ``--profile`` runs
the real command once more under ``python -X importtime`` (the import report read off the
terminal) and prints the costliest imports of the path to the table.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import codecs
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

ROWS, COLS = 24, 80
BARE_APP = Path(__file__).resolve().parent / "bare_app.py"
TIMEOUT = 60.0

# markers, matched in the output with escape sequences and all white space removed
BARE_READY = "xChangeqQuit"          # the bare app's footer
START_READY = "qQuit"                # the start screen's footer (after its title)
START_TITLE = "PokerRoulette"
RESUME_OFFERED = "Agameisinprogress"
TABLE_READY = "lLeave"               # the table screen's footer: ? Help  l Leave  q Quit
HELP_SHOWN = "escClose"               # the help screen's footer

_ESCAPE = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\"
    rb"|[()][0-9A-Za-z]|[ -/]*[0-~])")
_INCOMPLETE = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|\][^\x07]*|P[^\x1b]*|[()])?\Z")
_SPACE = re.compile(r"\s+")


def console_script() -> str:
    """The installed ``pokeroulette`` command, next to this Python."""
    path = Path(sys.executable).parent / "pokeroulette"
    found = str(path) if path.exists() else shutil.which("pokeroulette")
    if not found:
        raise SystemExit("the pokeroulette command is not installed (pip install -e .)")
    return found


def spawn_in_pty(argv: list[str], env: dict[str, str]) -> tuple[int, int]:
    """Start ``argv`` in a pseudo-terminal of ROWS x COLS: (its pid, the terminal's fd)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: size the terminal, then become the command
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, fd


class Terminal:
    """A process in a pseudo-terminal, and what it has drawn, as plain text."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.start = time.perf_counter()
        pid, fd = spawn_in_pty(argv, env)
        self.pid, self.fd = pid, fd
        self.raw = bytearray()     # everything read, for the import report
        self.text = ""             # escape sequences and white space removed
        self._pending = b""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.mark = 0              # searches start here
        self.lengths: list[int] = []  # len(self.text) after each read …
        self.reads: list[float] = []  # … and the time of that read

    def _feed(self, data: bytes) -> None:
        self.raw += data
        data = self._pending + data
        cut = data.rfind(b"\x1b")
        if cut >= 0 and _INCOMPLETE.match(data, cut) and len(data) - cut < 256:
            data, self._pending = data[:cut], data[cut:]  # an escape sequence split in two
        else:
            self._pending = b""
        self.text += _SPACE.sub("", self._decoder.decode(_ESCAPE.sub(b"", data)))

    def wait_for(self, marker: str, timeout: float = TIMEOUT) -> float:
        """The time (perf_counter) of the read that completed ``marker`` after the mark."""
        give_up = time.perf_counter() + timeout
        while (at := self.text.find(marker, self.mark)) < 0:
            left = give_up - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"{marker!r} never appeared; the screen shows "
                                   f"{self.text[-300:]!r}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
            if ready and not self._read():
                raise RuntimeError(f"the process ended before {marker!r} appeared; "
                                   f"it showed {self.text[-300:]!r}")
        end = at + len(marker)
        return self.reads[bisect.bisect_left(self.lengths, end)]

    def _read(self) -> bool:
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            return False
        if data:
            now = time.perf_counter()
            self._feed(data)
            self.lengths.append(len(self.text))
            self.reads.append(now)
        return bool(data)

    def drain(self, seconds: float) -> None:
        """Read (and keep) what arrives for a while."""
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready and not self._read():
                return

    def expect_after_now(self) -> None:
        self.mark = len(self.text)

    def send(self, data: bytes) -> float:
        self.expect_after_now()
        sent = time.perf_counter()
        os.write(self.fd, data)
        return sent

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


# -- the runs ---------------------------------------------------------------------------------

def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode caches as after an install
    env.pop("PYTHONPYCACHEPREFIX", None)
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    env["COLUMNS"], env["LINES"] = str(COLS), str(ROWS)
    return env


def run_bare(env: dict[str, str], presses: int = 0) -> dict:
    """Seconds from launch to the bare app's footer; then ``x`` to its new text."""
    term = Terminal([sys.executable, str(BARE_APP)], env)
    try:
        out = {"ready": term.wait_for(BARE_READY) - term.start, "keys": []}
        for n in range(1, presses + 1):
            sent = term.send(b"x")
            out["keys"].append(term.wait_for(f"pressed{n}") - sent)
        return out
    finally:
        term.close()


def run_table(env: dict[str, str], home: Path, *, resume: bool, presses: int = 0, think: float = 0.0,
              argv_prefix: list[str] | None = None) -> tuple[dict, Terminal | None]:
    """Launch ``pokeroulette``, press Enter on the start screen, wait for the table."""
    env = dict(env, POKEROULETTE_HOME=str(home))
    term = Terminal([*(argv_prefix or []), console_script()], env)
    keep = False
    try:
        term.wait_for(START_TITLE)
        if resume:
            term.wait_for(RESUME_OFFERED)
        start = term.wait_for(START_READY)
        if think:
            term.drain(think)  # a player reading the start screen
        sent = term.send(b"\r")
        table = term.wait_for(TABLE_READY)
        out = {"start": start - term.start, "deal": table - sent, "ready": table - term.start,
               "keys": []}
        for _ in range(presses):
            sent = term.send(b"?")
            out["keys"].append(term.wait_for(HELP_SHOWN) - sent)
            term.send(b"\x1b")
            term.wait_for(TABLE_READY)
            term.drain(0.05)
        keep = argv_prefix is not None
        return out, (term if keep else None)
    finally:
        if not keep:
            term.close()


def make_saved_game(env: dict[str, str]) -> Path:
    """A home folder with an autosave: a new table played for a moment, then killed."""
    home = Path(tempfile.mkdtemp(prefix="bench-startup-saved-"))
    term = Terminal([console_script()], dict(env, POKEROULETTE_HOME=str(home)))
    try:
        term.wait_for(START_READY)
        term.send(b"\r")
        term.wait_for(TABLE_READY)
        term.drain(2.5)  # the dealer deals, the bots act
    finally:
        term.close()
    if not (home / "data" / "autosave.json").exists():
        raise RuntimeError(f"no autosave was written in {home}")
    return home


def fresh_home(template: Path | None = None) -> Path:
    home = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    if template is not None:
        shutil.copytree(template, home, dirs_exist_ok=True)
    return home


def one_round(env: dict[str, str], saved: Path | None, presses: int, results: dict, *,
              no_bytecode: bool = False,
              cases: tuple[str, ...] = ("bare", "new", "resume")) -> None:
    """One launch of each case, interleaved: bare app, new table, resumed table.

    With ``no_bytecode`` every launch gets its own empty ``PYTHONPYCACHEPREFIX``.
    """
    for case in cases:
        cache = tempfile.mkdtemp(prefix="bench-startup-pycache-") if no_bytecode else None
        run_env = dict(env, PYTHONPYCACHEPREFIX=cache) if cache else env
        try:
            if case == "bare":
                bare = run_bare(run_env, presses)
                results["bare"].append(bare["ready"])
                results["bare_keys"] += bare["keys"]
                continue
            home = fresh_home(saved if case == "resume" else None)
            try:
                out, _ = run_table(run_env, home, resume=case == "resume", presses=presses)
            finally:
                shutil.rmtree(home, ignore_errors=True)
            results[case].append(out["ready"])
            results[case + "_start"].append(out["start"])
            results[case + "_deal"].append(out["deal"])
            results["table_keys"] += out["keys"]
        finally:
            if cache:
                shutil.rmtree(cache, ignore_errors=True)


def empty_results() -> dict:
    return {k: [] for k in ("bare", "bare_keys", "new", "new_start", "new_deal", "resume",
                            "resume_start", "resume_deal", "table_keys")}


# -- the import report ------------------------------------------------------------------------

_IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)([\w.]+)")


def _imports(raw: bytes) -> dict[str, tuple[int, int, int]]:
    """``-X importtime`` lines read off a terminal: module -> (self µs, cumulative µs, depth)."""
    text = raw.decode("utf-8", "replace")
    return {m.group(4): (int(m.group(1)), int(m.group(2)), len(m.group(3)) // 2)
            for m in _IMPORT_LINE.finditer(text)}


def import_profile(env: dict[str, str], top: int) -> None:
    """Both commands under ``python -X importtime`` in a terminal: what the real path imports
    that the bare app does not, before its start screen and after Enter."""
    term = Terminal([sys.executable, "-X", "importtime", str(BARE_APP)], env)
    try:
        term.wait_for(BARE_READY)
        term.drain(0.3)
        bare = _imports(bytes(term.raw))
    finally:
        term.close()
    home = fresh_home()
    term = Terminal([sys.executable, "-X", "importtime", console_script()],
                    dict(env, POKEROULETTE_HOME=str(home)))
    try:
        term.wait_for(START_READY)
        term.drain(0.3)
        cut = len(term.raw)
        term.send(b"\r")
        term.wait_for(TABLE_READY)
        term.drain(0.3)
        before = _imports(bytes(term.raw[:cut]))
        after = {k: v for k, v in _imports(bytes(term.raw)).items() if k not in before}
    finally:
        term.close()
        shutil.rmtree(home, ignore_errors=True)

    def total(mods) -> float:
        return sum(v[0] for v in mods.values()) / 1000

    extra = {k: v for k, v in before.items() if k not in bare}
    print("\nImports (python -X importtime in the terminal; self times summed, the report itself "
          "slows imports down):")
    print(f"  bare app: {len(bare)} modules, {total(bare):.0f} ms; pokeroulette to the start "
          f"screen: {len(before)} modules, {total(before):.0f} ms, of which {len(extra)} modules "
          f"({total(extra):.0f} ms) the bare app does not import; after Enter: {len(after)} "
          f"modules, {total(after):.0f} ms")
    for title, mods in (("before the start screen, not imported by the bare app", extra),
                        ("after Enter, on the way to the table", after)):
        print(f"  {title} (cumulative ms, self ms, module; outermost first):")
        rows = sorted(mods.items(), key=lambda kv: -kv[1][1])[:top]
        for name, (own, cumulative, depth) in rows:
            print(f"  {cumulative / 1000:8.1f} {own / 1000:7.1f}   {'  ' * depth}{name}")


# -- report -----------------------------------------------------------------------------------

def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.0f} ms"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few runs (a smoke test)")
    parser.add_argument("--runs", type=int, default=None, help="warm runs of each")
    parser.add_argument("--no-bytecode-runs", type=int, default=None,
                        help="runs of each without bytecode caches")
    parser.add_argument("--profile", action="store_true", help="print the costliest imports")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="also time Enter to the table after this long on the start screen "
                             "(a player reading it; the start screen loads the table meanwhile)")
    parser.add_argument("--no-headless", action="store_true",
                        help="skip the in-process key latency figures")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 11)
    cold_runs = args.no_bytecode_runs
    if cold_runs is None:
        cold_runs = 1 if args.quick else 3
    presses = 2 if args.quick else 3
    env = base_env()

    # the first launch of each, reported apart (the autosave is made after the first new table)
    first = empty_results()
    one_round(env, None, presses, first, cases=("bare", "new"))
    saved = make_saved_game(env)
    try:
        one_round(env, saved, presses, first, cases=("resume",))
        warm = empty_results()
        for _ in range(runs):
            one_round(env, saved, presses, warm)
        cold = empty_results()
        for _ in range(cold_runs):
            one_round(env, saved, 0, cold, no_bytecode=True)
    finally:
        shutil.rmtree(saved, ignore_errors=True)

    med = statistics.median
    print(f"Start-up of the real command in a {COLS}x{ROWS} pseudo-terminal, each launch a fresh "
          f"process (Python {sys.version.split()[0]})")
    head = f"  {'':<36}{'first run':>10}{f'warm, median of {runs}':>22}"
    print(head + (f"{f'no bytecode, median of {cold_runs}':>28}" if cold_runs else ""))
    rows = [("bare Textual app to its footer", "bare"),
            ("pokeroulette to the start screen", "new_start"),
            ("  Enter to the table", "new_deal"),
            ("pokeroulette, new table: total", "new"),
            ("pokeroulette with an autosave: start", "resume_start"),
            ("  Enter to the resumed table", "resume_deal"),
            ("pokeroulette, resumed table: total", "resume")]
    for label, key in rows:
        line = f"  {label:<36}{ms(first[key][0]):>10}{ms(med(warm[key])):>22}"
        if cold_runs:
            line += f"{ms(med(cold[key])):>28}"
        print(line)
    print("Ratios to the bare app (same run, same kind of launch):")
    for label, key in (("new table", "new"), ("resumed table", "resume"),
                       ("start screen", "new_start")):
        parts = [f"first {first[key][0] / first['bare'][0]:.2f}x",
                 f"warm {med(warm[key]) / med(warm['bare']):.2f}x"]
        if cold_runs:
            parts.append(f"no bytecode {med(cold[key]) / med(cold['bare']):.2f}x")
        print(f"  {label:<36}" + ", ".join(parts))
    keys_bare = first["bare_keys"] + warm["bare_keys"]
    keys_table = first["table_keys"] + warm["table_keys"]
    print(f"Key to screen in the terminal ({len(keys_table)} presses):       p50        p95")
    for label, values in (("x in the bare app (reference)", keys_bare),
                          ("? opens the help at the table", keys_table)):
        print(f"  {label:<36}{ms(pct(values, 50))} {ms(pct(values, 95))}   p50 ratio "
              f"{med(values) / med(keys_bare):.2f}x")
    ratio = med(warm["new"]) / med(warm["bare"])
    print(f"Warm start ratio, new table: {ratio:.2f}x (target within 1.5x): "
          f"{'ok' if ratio <= 1.5 else 'SLOWER'}")

    if args.think > 0:
        thought = []
        for _ in range(runs):
            home = fresh_home()
            try:
                out, _ = run_table(env, home, resume=False, think=args.think)
            finally:
                shutil.rmtree(home, ignore_errors=True)
            thought.append(out["deal"])
        print(f"Enter to the table after {args.think:g} s on the start screen (new table, median "
              f"of {runs}): {ms(med(thought))}; with no pause: {ms(med(warm['new_deal']))}")

    if not args.no_headless:
        import headless_keys as hk

        n = max(runs, 5) * 2
        key_ref = asyncio.run(hk.key_latency_hello(n))
        help_times, bet_times = asyncio.run(hk.key_latency_table(n))
        print(f"Key to updated screen, headless in-process ({n} presses):  p50        p95")
        for label, values in (("x in a one-Static app (reference)", key_ref),
                              ("? opens the help", help_times), ("c checks or calls", bet_times)):
            print(f"  {label:<36}{ms(pct(values, 50))} {ms(pct(values, 95))}   p50 ratio "
                  f"{med(values) / med(key_ref):5.2f}x")
    if args.profile:
        import_profile(env, 25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
