"""What the casino keeps between runs, per user: each player's bankroll, each pay table's
jackpot and the last rounds. Play money only.

One JSON file (``casino.json`` in the data folder), written whole and atomically after every
round (a temporary file, fsync, rename): a crash, kill -9 included, leaves the last round or
the one before, never half a file. A damaged file is moved aside (``casino.json.damaged``)
with a message saying so, and the casino starts afresh; nothing is overwritten unseen.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokeroulette_tui.engine.casino.game import HISTORY, Casino, Round
from pokeroulette_tui.engine.casino.paytable import PayTable
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.folders import (
    ForeignFolderError,
    atomic_write,
    checked_dir,
    private_dir,
)

FORMAT = "pokeroulette-casino"
VERSION = 1
START_BANKROLL = 1000
"""A new player's (or a reset) bankroll, in play chips."""


@dataclass
class CasinoStore:
    path: Path
    bankrolls: dict[str, int] = field(default_factory=dict)
    jackpots: dict[str, int] = field(default_factory=dict)  # pay table -> hundredths
    history: list[Round] = field(default_factory=list)
    warning: str = ""  # said once, after a damaged file was moved aside

    @classmethod
    def open(cls, path: Path) -> CasinoStore:
        store = cls(path)
        try:
            checked_dir(path.parent)  # another account's folder: its file is not ours to read
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return store
        except ForeignFolderError as exc:  # not read, not moved aside: play on fresh, said why
            store.warning = str(exc)
            return store
        except (OSError, UnicodeDecodeError) as exc:
            store._set_aside(_("The casino file {path} could not be read ({problem})").format(
                path=path, problem=exc))
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
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            store.bankrolls, store.jackpots, store.history = {}, {}, []
            store._set_aside(_("The casino file {path} is damaged ({problem})").format(
                path=path, problem=str(exc)[:80]))
        return store

    def _set_aside(self, why: str) -> None:
        aside = self.path.with_name(self.path.name + ".damaged")
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
        history, and write the file (raises OSError)."""
        for p in casino.players:
            self.bankrolls[p.name] = p.bankroll + p.staked
        self.jackpots[casino.table.name] = casino.jackpot_hundredths
        self.history = (self.history + [r for r in casino.history
                                        if r not in self.history])[-HISTORY:]
        self.write()

    def reset_bankroll(self, name: str) -> None:
        self.bankrolls[name] = START_BANKROLL
        self.write()

    def reset_jackpot(self, table: PayTable) -> None:
        self.jackpots[table.name] = table.jackpot_seed * 100
        self.write()

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "bankrolls": self.bankrolls,
                "jackpots": self.jackpots, "history": [r.to_dict() for r in self.history]}

    def write(self) -> None:
        private_dir(self.path.parent)  # the data folder: ours, or refused (ForeignFolderError)
        atomic_write(self.path, json.dumps(self.to_dict(), indent=1))


def _chips(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"not a number of chips: {value!r:.20}")
    return value
