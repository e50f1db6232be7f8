"""Where statistics live: one append-only JSON-lines file per player in a folder.

A file starts with a header line, may carry one ``totals`` line (the counts of older hands
folded together when the file was compacted), then one line per hand or game end.
Appending a line is one ``write`` on a file opened for appending, so a process killed at
any moment leaves at worst a torn last line: it is ignored on load and cut off before the
next append. A file damaged anywhere else is set aside (renamed, never deleted) with a
message saying so, and its readable records are kept in a fresh file. Compaction writes
the new file whole and renames it over the old one, so it cannot be half done either.

>>> import tempfile, pathlib
>>> store = StatsStore(pathlib.Path(tempfile.mkdtemp()))
>>> store.players(), store.load("Ana").tally().hands
([], 0)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Iterator

from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.folders import (
    ForeignFolderError,
    atomic_write,
    checked_dir,
    locked,
    os_problem,
    private_dir,
)
from pokeroulette_tui.engine.stats import GameRecord, HandRecord, PlayerStats, record_from_dict

FORMAT = "pokeroulette-stats"
VERSION = 1
KEEP_HANDS = 2000
"""Hands kept whole (for the hand histories); older ones live on in the totals."""
COMPACT_BYTES = 4 * 1024 * 1024
"""A file longer than this is compacted: the newest hands (at most KEEP_HANDS, and at most
half this size) stay whole, the older ones are folded into the totals."""
LOCK_FILE = ".lock"
"""The file in the folder whose lock writers hold (see :meth:`StatsStore._locked`)."""
MAX_BYTES = 64 * 1024 * 1024
"""A file bigger than this is not a statistics file of ours (it is set aside)."""


def file_name(player: str) -> str:
    """A safe file name for a player's name (any text) that two names never share.

    >>> file_name("Ana"), file_name("../x y")[:4], file_name("a b") == file_name("a_b")
    ('Ana-c96634ae.jsonl', 'x_y-', False)
    """
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", player).strip("_")[:40] or "player"
    digest = hashlib.sha1(player.encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}.jsonl"


class StatsStore:
    """The statistics folder (``stats`` in the data folder): load, append, compact, reset.

    ``problems`` collects what was wrong with a file (set aside) in plain words, for the
    screen or the command line to show.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.problems: list[str] = []
        self._held = threading.local()  # this thread holds the folder's lock (see _locked)

    def path(self, player: str) -> Path:
        return self.folder / file_name(player)

    def players(self) -> list[str]:
        """The players with statistics here, by name (from each file's header). Files set
        aside as damaged are not players' files; a player's file whose header cannot be read
        is set aside now (see :attr:`problems`): whose it was cannot be told."""
        names = []
        try:
            folder = checked_dir(self.folder)
        except ForeignFolderError as exc:  # what another account's folder holds is not ours
            self.problems.append(str(exc))
            return []
        if folder is None:
            return []
        try:  # (a folder that cannot be listed would look empty: said, not taken for none)
            listed = sorted(folder / name for name in os.listdir(folder) if name.endswith(".jsonl"))
        except OSError as exc:
            self.problems.append(_("The statistics folder {folder} cannot be read ({problem}); "
                                   "no statistics are shown from it.").format(
                                       folder=folder, problem=os_problem(exc)))
            return []
        for path in listed:
            if _ASIDE.search(path.name):
                continue  # a damaged file kept: not read again
            head = _head(path)
            if isinstance(head, _Unreadable):  # (left as it is: it may be whole, only locked away)
                self.problems.append(_("The statistics file {path} cannot be read ({problem}), so "
                                       "its player's games are not counted; it is left as it "
                                       "is.").format(path=path, problem=head.problem))
                continue
            if head is _UNFINISHED:
                continue  # being written now, or its first write was cut short: an append mends it
            if _good_head(head):
                if path.name == file_name(head["player"]):  # type: ignore[index]
                    names.append(head["player"])  # type: ignore[index]
                continue
            with self._locked():  # (looked at again: it may have been replaced meanwhile)
                again = _head(path)
                if again is not _UNFINISHED and not isinstance(again, _Unreadable) \
                        and not _good_head(again):
                    self._set_aside_locked(path, path.stem, [], _(
                        "the first line is not a statistics header"), None)
        return sorted(names, key=str.casefold)

    # -- reading ------------------------------------------------------------------------------
    def records(self, player: str) -> tuple[PlayerStats, list[HandRecord | GameRecord]]:
        """The player's totals (older hands folded in) and the records kept, oldest first.
        A damaged file is set aside first (see :attr:`problems`)."""
        stats = PlayerStats(player)
        path = self.path(player)
        checked_dir(self.folder)  # another account's folder: ForeignFolderError, nothing read
        try:
            if path.stat().st_size > MAX_BYTES:
                self._set_aside(path, player, [], _("it is over {mb} MB").format(
                    mb=MAX_BYTES // 2**20), None)
                return stats, []
            data = path.read_bytes()
        except FileNotFoundError:
            return stats, []
        except OSError as exc:
            self.problems.append(_("The statistics of {player} cannot be read ({problem}).").format(
                player=player, problem=os_problem(exc)))
            return stats, []
        records: list[HandRecord | GameRecord] = []
        totals = None
        bad: list[str] = []
        complete, __, _torn = data.rpartition(b"\n")  # a torn last line: a write cut short
        for number, line in enumerate(complete.split(b"\n") if complete else [], start=1):
            try:
                doc = json.loads(line)
                if number == 1:
                    if not (isinstance(doc, dict) and doc.get("format") == FORMAT):
                        raise ValueError(_("the first line is not a statistics header"))
                    if doc.get("version") != VERSION:
                        raise ValueError(_("it is format version {version}").format(
                            version=repr(doc.get('version'))))
                    continue
                if isinstance(doc, dict) and doc.get("kind") == "totals" and totals is None:
                    stats.load_totals(doc)
                    totals = doc
                    continue
                records.append(record_from_dict(doc))
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
                bad.append(_("line {number}: {error}").format(
                    number=number, error=str(exc)[:80] or type(exc).__name__))
                if number == 1:  # not a statistics file at all: keep nothing of it
                    records = []
                    break
        if bad:
            why = bad[0] if len(bad) == 1 else ngettext(
                "{first} and {n} more", "{first} and {n} more", len(bad) - 1).format(
                first=bad[0], n=len(bad) - 1)
            self._set_aside(path, player, records, why, totals)
        return stats, records

    def load(self, player: str) -> PlayerStats:
        """The player's statistics, every hand and game counted once."""
        return self.load_with_hands(player, 0)[0]

    def load_with_hands(self, player: str, last: int) -> tuple[PlayerStats, list[HandRecord]]:
        """The player's statistics and their ``last`` hands (newest last), in one reading."""
        stats, records = self.records(player)
        for rec in records:
            if isinstance(rec, HandRecord):
                stats.add_hand(rec)
            else:
                stats.add_game(rec)
        hands = [r for r in records if isinstance(r, HandRecord)] if last else []
        return stats, hands[-last:] if last else []

    def hands(self, player: str) -> Iterator[HandRecord]:
        """The hands kept whole, oldest first (for the histories)."""
        return (r for r in self.records(player)[1] if isinstance(r, HandRecord))

    def _set_aside(self, path: Path, player: str, good: list[HandRecord | GameRecord], why: str,
                   totals: dict | None) -> None:
        with self._locked():
            self._set_aside_locked(path, player, good, why, totals)

    def _set_aside_locked(self, path: Path, player: str, good: list[HandRecord | GameRecord],
                          why: str, totals: dict | None) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.stem}.damaged-{stamp}.jsonl")
        n = 1
        while aside.exists():  # (two set aside within a second: neither written over)
            n += 1
            aside = path.with_name(f"{path.stem}.damaged-{stamp}-{n}.jsonl")
        try:
            os.replace(path, aside)
            if good or totals:
                self._rewrite(player, good, totals)
            if good:
                said = ngettext(
                    "The statistics file of {player} was damaged ({why}). It was set aside as "
                    "{aside}; its {n} readable record was kept.",
                    "The statistics file of {player} was damaged ({why}). It was set aside as "
                    "{aside}; its {n} readable records were kept.", len(good))
            else:
                said = _("The statistics file of {player} was damaged ({why}). It was set aside "
                         "as {aside}.")
            self.problems.append(said.format(player=player, why=why, aside=aside, n=len(good)))
        except OSError as exc:
            self.problems.append(_("The statistics file of {player} is damaged ({why}) and could "
                                   "not be set aside ({problem}).").format(
                                       player=player, why=why, problem=exc.strerror))

    # -- writing ------------------------------------------------------------------------------
    def append(self, player: str, records: list[HandRecord | GameRecord]) -> None:
        """Add records to the player's file (one write; a new file gets its header first).
        Raises OSError (the disk, the folder): the caller says so and plays on."""
        if not records:
            return
        private_dir(self.folder)
        with self._locked():  # (another game of this account may be writing, or compacting)
            self._append(player, records)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The folder's lock (``.lock`` in it), held while a file is appended to, compacted
        or set aside: two games of one account (two terminals, the SSH room) recording at
        once lose nothing (a compaction rewrites the file: a line appended meanwhile to the
        old one was lost). Where locks do not work (some network file systems) the write
        goes on without one."""
        held = self._held
        if getattr(held, "depth", 0):  # this thread holds it (a compaction's read, say)
            held.depth += 1
            try:
                yield
            finally:
                held.depth -= 1
            return
        with locked(self.folder / LOCK_FILE):
            held.depth = 1
            try:
                yield
            finally:
                held.depth = 0

    def _append(self, player: str, records: list[HandRecord | GameRecord]) -> None:
        path = self.path(player)
        text = "".join(json.dumps(r.to_dict(), separators=(",", ":")) + "\n" for r in records)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        try:
            size = os.fstat(fd).st_size
            if size:
                size = _cut_torn_line(fd, size)
            if size == 0:
                text = _header(player) + text
            data = text.encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            size += len(data)
        finally:
            os.close(fd)
        if size > COMPACT_BYTES:
            self.compact(player)

    def compact(self, player: str, *, keep: int = KEEP_HANDS,
                keep_bytes: int | None = None) -> None:
        """Fold all but the newest hands (``keep`` of them, in ``keep_bytes`` at most) into
        the totals line, and write the file anew (atomically)."""
        with self._locked():
            self._compact(player, keep, keep_bytes)

    def _compact(self, player: str, keep: int, keep_bytes: int | None) -> None:
        if keep_bytes is None:
            keep_bytes = COMPACT_BYTES // 2
        stats, records = self.records(player)
        cut, hands, size = len(records), 0, 0
        while cut > 0 and hands < keep:
            rec = records[cut - 1]
            size += len(json.dumps(rec.to_dict(), separators=(",", ":"))) + 1
            if size > keep_bytes:
                break
            cut -= 1
            hands += isinstance(rec, HandRecord)
        if cut == 0:
            return
        for rec in records[:cut]:
            if isinstance(rec, HandRecord):
                stats.add_hand(rec)
            else:
                stats.add_game(rec)
        self._rewrite(player, records[cut:], stats.totals_dict())

    def _rewrite(self, player: str, records: list[HandRecord | GameRecord],
                 totals: dict | None) -> None:
        lines = [_header(player)]
        if totals is not None:
            lines.append(json.dumps(totals, separators=(",", ":")) + "\n")
        lines += [json.dumps(r.to_dict(), separators=(",", ":")) + "\n" for r in records]
        atomic_write(self.path(player), "".join(lines))

    def reset(self, player: str | None = None) -> list[Path]:
        """Delete one player's statistics, or everyone's; returns the files removed. Nothing
        is deleted in a folder another account could swap (ForeignFolderError)."""
        if checked_dir(self.folder) is None:
            return []
        paths = [self.path(player)] if player is not None else list(self.folder.glob("*.jsonl"))
        gone = []
        for path in paths:
            try:
                path.unlink()
                gone.append(path)
            except FileNotFoundError:
                pass
        return gone


_UNFINISHED = object()


class _Unreadable:
    """A file that cannot be read (its permissions, a folder in its place): why, in words."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _head(path: Path) -> object:
    """The first line of a statistics file, read as JSON (None: not JSON); ``_UNFINISHED``
    while it has no whole first line yet (or is gone); an :class:`_Unreadable` if it cannot
    be read."""
    try:
        with open(path, "rb") as f:
            line = f.readline(8192)
    except FileNotFoundError:
        return _UNFINISHED  # (removed meanwhile: a reset, a compaction's rename)
    except OSError as exc:
        return _Unreadable(os_problem(exc))
    if not line.endswith(b"\n"):
        return _UNFINISHED
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _good_head(head: object) -> bool:
    return isinstance(head, dict) and head.get("format") == FORMAT and \
        isinstance(head.get("player"), str)


_ASIDE = re.compile(r"\.damaged-\d{8}-\d{6}(-\d+)?\.jsonl$")
"""The name of a file set aside as damaged (see :meth:`StatsStore._set_aside_locked`)."""


def _header(player: str) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "player": player},
                      separators=(",", ":")) + "\n"


def _cut_torn_line(fd: int, size: int) -> int:
    """A file that does not end in a newline lost the end of its last line (the process was
    killed while writing): cut that line off so the next one starts clean. Returns the
    size left."""
    if os.pread(fd, 1, size - 1) == b"\n":
        return size
    chunk = 4096
    end = size
    while end > 0:
        start = max(0, end - chunk)
        data = os.pread(fd, end - start, start)
        newline = data.rfind(b"\n")
        if newline >= 0:
            os.ftruncate(fd, start + newline + 1)
            return start + newline + 1
        end = start
    os.ftruncate(fd, 0)
    return 0
