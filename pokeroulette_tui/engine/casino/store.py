"""What the casino keeps between runs, per user: each player's bankroll, each pay table's
jackpot and the last rounds. Play money only.

One JSON file (``casino.json`` in the data folder), written whole and atomically after every
round (a temporary file, fsync, rename): a crash, kill -9 included, leaves the last round or
the one before, never half a file. A damaged file is moved aside (``casino.json.damaged``,
then ``.damaged-2`` …) with a message saying so, and the casino starts afresh; nothing is
overwritten unseen.

Two casinos of one account may run at once (two terminals, the SSH room): each write holds
a lock (``casino.json.lock``), reads the file again and changes only what this casino
changed: its players' bankrolls, and each jackpot by what this casino added to it or paid
out since it last read it (the jackpot is shared, so the other casino's side bets count
too); a reset changes only what it resets.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pokeroulette_tui.engine.casino.game import HISTORY, Casino, Round
from pokeroulette_tui.engine.casino.paytable import START_BANKROLL, PayTable
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.folders import (
    ForeignFolderError,
    atomic_write,
    checked_dir,
    locked,
    private_dir,
)

FORMAT = "pokeroulette-casino"
VERSION = 1
# START_BANKROLL (imported above, and from here by the rest): a new player's (or a reset)
# bankroll, in play chips; kept with the pay tables, whose stakes must fit it


@dataclass
class CasinoStore:
    path: Path
    bankrolls: dict[str, int] = field(default_factory=dict)
    jackpots: dict[str, int] = field(default_factory=dict)  # pay table -> hundredths
    history: list[Round] = field(default_factory=list)
    warning: str = ""  # said once, after a damaged file was moved aside
    _seen: dict[str, int] = field(default_factory=dict, repr=False)
    """Each jackpot as this store last read or wrote it (what a casino's change is from)."""

    @classmethod
    def open(cls, path: Path) -> CasinoStore:
        store = cls._read(path)
        store._seen = dict(store.jackpots)
        return store

    @classmethod
    def _read(cls, path: Path) -> CasinoStore:
        store = cls(path)
        try:
            checked_dir(path.parent)  # another account's folder: its file is not ours to read
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return store
        except ForeignFolderError as exc:  # not read, not moved aside: play on fresh, said why
            store.warning = str(exc)
            return store
        except UnicodeDecodeError:
            store._set_aside(_("The casino file is damaged"))
            return store
        except OSError as exc:  # (the path is said once, in where the file went)
            store._set_aside(_("The casino file could not be read ({problem})").format(
                problem=exc.strerror or exc))
            return store
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not a casino file")
            if data.get("version") != VERSION:
                raise ValueError(f"version {data.get('version')!r}, not {VERSION}")
            store.bankrolls = {str(k): _chips(v) for k, v in data["bankrolls"].items()}
            store.jackpots = {str(k): _chips(v) for k, v in data["jackpots"].items()}
            store.history = [Round.from_dict(r) for r in data.get("history", [])][-HISTORY:]
        except (ValueError, KeyError, TypeError, AttributeError):
            store.bankrolls, store.jackpots, store.history = {}, {}, []
            # (not the JSON parser's words: they cut the rest off an 80x24 casino's panel)
            store._set_aside(_("The casino file is damaged"))
        return store

    def _set_aside(self, why: str) -> None:
        aside = self.path.with_name(self.path.name + ".damaged")
        n = 1
        while aside.exists():  # (an older damaged copy is kept too)
            n += 1
            aside = self.path.with_name(f"{self.path.name}.damaged-{n}")
        try:
            os.replace(self.path, aside)
            words = _("{why}: it was moved to {aside}; bankrolls and the jackpot start afresh.")
        except OSError:
            words = _("{why}: it was left where it is; bankrolls and the jackpot start afresh.")
        self.warning = words.format(why=why, aside=aside)

    def bankroll(self, name: str) -> int:
        return self.bankrolls.get(name, START_BANKROLL)

    def jackpot(self, table: PayTable) -> int:
        """The table's jackpot in hundredths of a chip."""
        return self.jackpots.get(table.name, table.jackpot_seed * 100)

    def record(self, casino: Casino) -> None:
        """Keep the table's bankrolls (chips on the board count as the player's), jackpot and
        history, and write the file (raises OSError). The jackpot written is the file's with
        this casino's change to it since it was last read; ``casino`` then shows that one."""
        name, seed = casino.table.name, casino.table.jackpot_seed * 100
        with self._locked():
            self._merge_file()
            for p in casino.players:
                self.bankrolls[p.name] = p.bankroll + p.staked
            change = casino.jackpot_hundredths - self._seen.get(name, seed)
            jackpot = max(seed, self.jackpots.get(name, seed) + change)
            self.jackpots[name] = self._seen[name] = casino.jackpot_hundredths = jackpot
            self.history = (self.history + [r for r in casino.history
                                            if r not in self.history])[-HISTORY:]
            self._write()

    def reset_bankroll(self, name: str) -> None:
        with self._locked():
            self._merge_file()
            self.bankrolls[name] = START_BANKROLL
            self._write()

    def reset_jackpot(self, table: PayTable) -> None:
        with self._locked():
            self._merge_file()
            self.jackpots[table.name] = self._seen[table.name] = table.jackpot_seed * 100
            self._write()

    def _merge_file(self) -> None:
        """Take what the file holds now (another casino of this account may have written
        it since), keeping this store's own rounds; a file that cannot be read is left to
        the write (it was moved aside when this store opened it)."""
        if not self.path.exists():
            return
        fresh = CasinoStore._read(self.path)
        if fresh.warning:  # (damaged since: moved aside by the read, said at the next open)
            self.warning = self.warning or fresh.warning
            return
        self.bankrolls = {**self.bankrolls, **fresh.bankrolls}
        self.jackpots = {**self.jackpots, **fresh.jackpots}
        self.history = (fresh.history + [r for r in self.history
                                         if r not in fresh.history])[-HISTORY:]

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The file's lock (``casino.json.lock`` beside it) while it is read and written
        again; where locks do not work the write goes on without one."""
        private_dir(self.path.parent)  # the data folder: ours, or refused (ForeignFolderError)
        with locked(self.path.with_name(self.path.name + ".lock")):
            yield

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "bankrolls": self.bankrolls,
                "jackpots": self.jackpots, "history": [r.to_dict() for r in self.history]}

    def write(self) -> None:
        private_dir(self.path.parent)  # the data folder: ours, or refused (ForeignFolderError)
        self._write()

    def _write(self) -> None:
        """Write the file (its folder checked already: by :meth:`_locked`, say)."""
        atomic_write(self.path, json.dumps(self.to_dict(), indent=1))


def _chips(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"not a number of chips: {value!r:.20}")
    return value
