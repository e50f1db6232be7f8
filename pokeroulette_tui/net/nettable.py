"""The hosted table's save: the local table's write-ahead journal, plus the host's resume data.

A :class:`NetTable` writes the same journal as :class:`~pokeroulette_tui.table.Table` (a
checkpoint, one line per action, finished hands once), and its resume data (token digests,
account bindings, the deck commitments) as ``"net"`` records: in the checkpoint's
``meta["net"]``, then, whenever a part of it changes, on the line of the action that changed
it (or on a line of its own). Only the parts that changed are written; a part that only
grows (who was shown which card) is written whole in the checkpoint and once a hand, and in
between only what was added to it (a ``"key+"`` record, see :mod:`~pokeroulette_tui.engine.journal`).

Nothing is written when an action is played: the lines wait until :meth:`NetTable.flush`
(or, on a server, :meth:`NetTable.take_journal`, whose write runs off the event loop, and
whose lines a group of actions shares one ``fsync``). Everything a message depends on is on
disk before that message is sent.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pokeroulette_tui import table as _table
from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.folders import os_problem
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.table import Table

log = logging.getLogger("pokeroulette.net")


_dumps: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":")).encode
"""As ``json.dumps(value, separators=(",", ":"))``, one encoder for every call."""
_MISSING = object()
_KEYS: dict[str, str] = {}


def _net_text(texts: dict[str, str]) -> str:
    """A net record (a mapping) from its values' JSON texts, as json writes the mapping."""
    keys = _KEYS
    parts = []
    for key, text in texts.items():
        k = keys.get(key)
        if k is None:
            k = keys[key] = _dumps(key)
        parts.append(k + ":" + text)
    return "{" + ",".join(parts) + "}"


@dataclass
class JournalWrite:
    """One write for the journal: a fresh checkpoint (``start``) or lines to append."""

    file: journal.JournalFile
    text: str
    start: bool = False

    def write(self) -> None:
        if self.start:
            self.file.start(self.text)
        else:
            self.file.append(self.text)


def write_all(writes: list[JournalWrite]) -> None:
    """Write a group of journal writes in order, then make the appended ones durable with one
    ``fdatasync`` per file (a checkpoint is written atomically and synced by ``start``).
    Runs in any thread; raises OSError."""
    failed = write_groups(writes)
    if failed:
        raise next(iter(failed.values()))


def write_groups(writes: list[JournalWrite]) -> dict[int, OSError]:
    """Like :func:`write_all` for the writes of several journals at once (several tables):
    each file's writes in order, the appends to one file joined into one ``write``, then one
    ``fdatasync`` per file. A file that fails skips its remaining writes without stopping the
    others. Returns the failures by ``id(file)``. Runs in any thread."""
    failed: dict[int, OSError] = {}
    synced: dict[int, journal.JournalFile] = {}
    segments: list[tuple[JournalWrite | None, journal.JournalFile, list[str]]] = []
    for w in writes:  # consecutive appends to one file become one write
        if not w.start and segments and segments[-1][0] is None and segments[-1][1] is w.file:
            segments[-1][2].append(w.text)
        else:
            segments.append((w if w.start else None, w.file, [w.text]))
    for start, file, texts in segments:
        key = id(file)
        if key in failed:
            continue  # a file that failed skips the rest of its writes
        try:
            if start is not None:
                start.write()
                synced.pop(key, None)  # a checkpoint is synced when written
            else:
                file.append(texts[0] if len(texts) == 1 else "".join(texts))
                synced[key] = file
        except OSError as exc:
            failed[key] = exc
            synced.pop(key, None)
    for key, f in synced.items():
        try:
            f.sync(data_only=True)
        except OSError as exc:
            failed[key] = exc
    return failed


@dataclass
class NetTable(Table):
    """A Table whose journal also keeps the host's resume data (token digests, commitments).

    ``net_meta`` gives that data as a mapping of parts (each written again only when it
    changes; ``whole=True``, for a checkpoint: each part as it stands, which starts its
    appends again), ``net_appends`` what to add to the parts that only grow;
    ``net_saved`` is what the save held when the table was resumed. ``save_problem`` says
    why the journal is not being written now, in words (:func:`os_problem`; "" while it is).
    """

    net_meta: Callable[..., dict[str, Any]] | None = None
    net_appends: Callable[[], dict[str, list[Any]]] | None = None
    defer: bool = False
    net_saved: dict[str, Any] = field(default_factory=dict, repr=False)
    save_problem: str = field(default="", repr=False)
    _lines: list[str] = field(default_factory=list, repr=False)
    _restart: bool = field(default=False, repr=False)
    _net_texts: dict[str, str] = field(default_factory=dict, repr=False)
    _net_objs: dict[str, Any] = field(default_factory=dict, repr=False)
    _grown: set[str] = field(default_factory=set, repr=False)
    _net_seen: Any = field(default=None, repr=False)  # the last mapping net_meta gave
    _where: Any = field(default=None, repr=False)     # (save_path, journal file) last …
    _where_file: Any = field(default=None, repr=False)
    _moved: bool = field(default=False, repr=False)   # … and whether that file is elsewhere

    @classmethod
    def _from_saved(cls, saved: Any, path: Path) -> "NetTable":
        table = super()._from_saved(saved, path)
        net = saved.meta.get("net", {})
        if not isinstance(net, dict):
            raise ValueError("net data is not a mapping")
        table.net_saved = net
        return table  # type: ignore[return-value]

    def meta(self) -> dict[str, Any]:
        meta = super().meta()
        if self.net_meta is not None:
            meta["net"] = self.net_meta(whole=True)
        return meta

    # -- recording ------------------------------------------------------------------
    def _record(self, action: Any, events: Any, finished: Any) -> None:
        """Keep the action's lines until the next flush (the host adds its resume data)."""
        if self.save_path is None:
            return
        file = self._journal
        if self._restart or file is None or self._needs_checkpoint(file, action, events):
            self._restart = True  # a fresh checkpoint at the next flush, this action included
            self._lines.clear()
            return
        if finished:
            self._lines.extend([journal.hand_line(h) for h in finished])
        self._lines.append(journal.action_line(action, self.state, events,
                                               encode=P.state_to_save))  # the faster encoder

    def _needs_checkpoint(self, file: journal.JournalFile, action: Any, events: Any) -> bool:
        """As :meth:`Table._needs_checkpoint`; whether the file is the save's is looked at
        again only when the save's path or the file changes."""
        where = self.save_path
        if where is not self._where or file is not self._where_file:
            self._where, self._where_file = where, file
            self._moved = file.path != (where if isinstance(where, Path) else Path(where or ""))
        return self._moved or (
            file.size > _table.COMPACT_BYTES and journal.shuffles(action, events))

    def autosave(self) -> None:
        """A fresh checkpoint at the next flush (at once unless the server writes)."""
        if self.save_path is None:
            return
        self._restart = True
        self._lines.clear()
        if not self.defer:
            self.flush()

    def _net_changes(self) -> dict[str, str]:
        """The parts of the resume data that differ from what the journal holds, as their
        JSON texts. A part is compared with the one last written (``net_meta`` makes a
        changed part anew, never changing one in place, and gives the same mapping again
        while no part changed: then nothing is looked at), and encoded only when it differs."""
        if self.net_meta is None:
            return {}
        meta = self.net_meta()
        if meta is self._net_seen:  # (every part as last looked at: the same objects)
            return {}
        self._net_seen = meta
        changed = {}
        last, texts, grown = self._net_objs, self._net_texts, self._grown
        for key, value in meta.items():
            before = last.get(key, _MISSING)
            if before is value:
                continue
            last[key] = value  # (the same object again is not looked at again)
            if key in grown:  # appended to since: a new whole part is written, even
                grown.discard(key)  # one equal to the last written
                texts.pop(key, None)
            elif type(before) is type(value) and before == value:
                continue
            text = _dumps(value)
            if texts.get(key) != text:
                texts[key] = text
                changed[key] = text
        return changed

    def take_journal(self) -> JournalWrite | None:
        """What to write now (run it with :func:`write_all`, in any thread, before sending
        anything that depends on it), or None when the journal is up to date."""
        if self.save_path is None:
            return None
        if self._restart or self._journal is None:
            self._restart = False
            self._lines.clear()
            return self._start_write()
        net = self._net_changes()
        if self.net_appends is not None:  # (after the changes: a part written whole
            for key, items in self.net_appends().items():  # restarts its appends)
                net[key + "+"] = _dumps(items)
                self._grown.add(key)
        lines = self._lines
        if not lines and not net:
            return None
        self._lines = []
        if net:
            text = _net_text(net)
            if lines and lines[-1].startswith('{"a":'):  # one line: torn together or not at all
                lines[-1] = lines[-1][:-2] + ',"net":' + text + "}\n"
            else:
                lines.append('{"net":' + text + "}\n")  # (journal.net_line)
        # all of them or none: the resume data on the last line is of the state after all
        text = lines[0] if len(lines) == 1 else "".join(journal.in_one_write(lines))
        return JournalWrite(self._journal, text)

    def _start_write(self) -> JournalWrite:
        if self._journal is not None:
            self._journal.close()
        meta = Table.meta(self)
        net = self.net_meta(whole=True) if self.net_meta is not None else {}
        meta["net"] = net
        self._net_texts = {k: _dumps(v) for k, v in net.items()}
        self._net_objs = dict(net)
        self._net_seen = net
        self._grown.clear()
        text = self._checkpoint_text(meta)
        self._journal = journal.JournalFile(Path(self.save_path))  # type: ignore[arg-type]
        return JournalWrite(self._journal, text, start=True)

    def flush(self) -> None:
        """Write (and sync) what is waiting, here and now. Never raises for a disk problem."""
        write = self.take_journal()
        if write is None:
            return
        try:
            write_all([write])
        except OSError as exc:
            self.write_failed(exc)
        else:
            self.written()

    def write_failed(self, exc: OSError) -> None:
        """A write failed (disk full, folder gone): log it; the next flush starts afresh."""
        self._failed(exc)
        self._restart = True

    def _failed(self, exc: OSError) -> None:
        super()._failed(exc)  # (the journal resumed, too: its file may not open for writing)
        self.save_problem = os_problem(exc)

    def written(self) -> None:
        """A write is on disk: the journal holds the table again (after a failure, the write
        was a whole checkpoint)."""
        self.save_error = self.save_problem = ""
