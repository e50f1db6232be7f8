"""The hosted table's save: a Table whose save also keeps the host's resume data (token
digests, account bindings, commitments), built incrementally so a save per action stays cheap."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from pokeroulette_tui.engine import save as saving
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.table import Table

log = logging.getLogger("pokeroulette.net")


SAVED_HANDS = 20
"""Past hands kept in the save (for the history a rejoining player is sent)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@dataclass
class NetTable(Table):
    """A Table whose save also keeps the host's resume data (token digests, commitments).

    Saves are built incrementally (actions and finished hands are encoded once), and with
    ``defer`` set the server writes them itself, off the event loop, before it sends anything
    that depends on them (:meth:`TableHost.take_save`).
    """

    net_meta: Callable[[], dict[str, Any]] | None = None
    defer: bool = False
    dirty: bool = False
    _action_texts: list[str] = field(default_factory=list, repr=False)
    _hand_texts: dict[int, list[str]] = field(default_factory=dict, repr=False)

    def meta(self) -> dict[str, Any]:
        meta = super().meta()
        if self.net_meta is not None:
            meta["net"] = self.net_meta()
        return meta

    def _record(self, action: Any, events: Any, finished: Any) -> None:
        self.autosave()  # the host writes its own save (with its resume data) after every action

    def autosave(self) -> None:
        if self.save_path is None:
            return
        if self.defer:
            self.dirty = True
            return
        try:
            saving.atomic_write(self.save_path, self.save_text())
        except OSError as exc:  # a full disk must not stop the table
            log.error("autosave to %s failed: %s", self.save_path, exc)

    def save_text(self) -> str:
        """The save file's text, as :func:`engine.save.dumps` writes it (loadable by ``load``)."""
        for a in self.actions[len(self._action_texts):]:
            self._action_texts.append(_dumps(a.to_dict()))
        hands = self.history[-SAVED_HANDS:]
        texts = []
        for hand in hands:  # each event is encoded once (the current hand grows)
            events = self._hand_texts.setdefault(id(hand), [])
            events.extend(_dumps(e.to_dict()) for e in hand[len(events):])
            texts.append("[" + ",".join(events) + "]")
        if len(self._hand_texts) > 2 * SAVED_HANDS:
            keep = {id(h) for h in hands}
            self._hand_texts = {k: v for k, v in self._hand_texts.items() if k in keep}
        # everything else Table.meta() keeps (seats, the bots' generators …), without
        # re-encoding the history, which is spliced in from the cache above
        history, self.history = self.history, []
        try:
            base = Table.meta(self)
        finally:
            self.history = history
        base.pop("history", None)
        base["net"] = self.net_meta() if self.net_meta is not None else {}
        meta = _dumps(base)
        meta = meta[:-1] + ',"history":[' + ",".join(texts) + "]}"
        return ('{"format":"%s","version":%d,"seed":%s,"names":%s,"meta":%s,"actions":[%s],'
                '"state":%s}') % (
            saving.FORMAT, saving.VERSION, _dumps(self.seed), _dumps([s.name for s in self.seats]),
            meta, ",".join(self._action_texts), _dumps(P.state_to_save(self.state)))
