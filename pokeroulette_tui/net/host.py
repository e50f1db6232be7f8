"""The table host: lobby, seats, turns, the turn timer and deck commitments, with no sockets.

A :class:`TableHost` takes what arrives on a connection (``connect``, ``receive`` a line,
``disconnect``) and the clock (``poll``), and returns the messages to send as a list of
:class:`Out`. :mod:`pokeroulette_tui.net.server` only moves those bytes.
"""

from __future__ import annotations

import logging
import secrets
from operator import attrgetter
from pathlib import Path
from typing import Any, Callable

from pokeroulette_tui.driver import BotJob, Driver, Pace
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.save import SaveError
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.admission import Admission
from pokeroulette_tui.net.broadcast import Broadcast
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.identity import HelloGuard
from pokeroulette_tui.net.lobby import Lobby
from pokeroulette_tui.net.nettable import JournalWrite, NetTable
from pokeroulette_tui.net.seats import Conn, HostConfig, Out, Player, Seats
from pokeroulette_tui.net.turns import Turns
from pokeroulette_tui.net.wire import StateMessages

__all__ = ["Conn", "HostConfig", "Out", "Player", "TableHost"]

log = logging.getLogger("pokeroulette.net")

#: The table's own settings (HostConfig fields) kept in its save and brought back by a
#: resume unless the resume's command line gives them: how the table plays, not how it is
#: served (the port, TLS, headless, the password's source are the command's).
TABLE_SETTINGS = ("turn_timeout", "delay", "hand_pause", "bot_level", "allow_hints",
                  "away_after")
_SETTINGS_OF = attrgetter(*TABLE_SETTINGS)
_SEAT_KEY = attrgetter("token_digest", "uid", "host")  # what a seat's resume data is made of


def _saved_settings(saved: Any) -> dict[str, Any]:
    """The table settings a save holds that can be used (a damaged one is left out)."""
    from pokeroulette_tui.bots import LEVELS

    if not isinstance(saved, dict):
        return {}
    out: dict[str, Any] = {}
    for key, top in (("turn_timeout", 86400.0), ("delay", 10.0), ("hand_pause", 60.0)):
        value = saved.get(key)
        if type(value) in (int, float) and 0 <= value <= top:
            out[key] = float(value)
    if saved.get("bot_level") in LEVELS:
        out["bot_level"] = saved["bot_level"]
    if isinstance(saved.get("allow_hints"), bool):
        out["allow_hints"] = saved["allow_hints"]
    away = saved.get("away_after")
    if type(away) is int and 1 <= away <= 1000:
        out["away_after"] = away
    return out


class TableHost(Admission, Lobby, Seats, Turns, Broadcast):
    """One hosted table: the only engine (run by its :class:`~pokeroulette_tui.driver.Driver`),
    the lobby before it, and every connection. Its jobs live in their own modules:
    :mod:`~pokeroulette_tui.net.admission` (hello, passwords, accounts),
    :mod:`~pokeroulette_tui.net.lobby`, :mod:`~pokeroulette_tui.net.seats`,
    :mod:`~pokeroulette_tui.net.turns` and :mod:`~pokeroulette_tui.net.broadcast`; here are
    the saves, the resume and the dispatch of what arrives."""

    def __init__(self, config: HostConfig, *, admin_token: str | None = None,
                 nonce_source: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self.config = config
        self.rules = config.rules
        self.admin_token = admin_token
        self.conns: dict[int, Conn] = {}
        self.players: list[Player] = []
        self.table: NetTable | None = None
        self.committer = DeckCommitter(nonce_source)
        self.chat_log: list[M.ChatLine] = []
        self.version = 0
        self.driver: Driver | None = None  # runs the table once the game starts
        self.next_wakeup: float | None = None
        self.defer_saves = False
        self._bot_job: BotJob | None = None      # made by poll, not yet taken
        self._states = StateMessages()
        # the journal's resume data (_net_meta): each part, and what it was made from
        self._zones_key: Any = None           # (actions played, the commitments) when placed
        self._zones: list[list[Any]] = []
        self._revealed_key: Any = None
        self._revealed: list[list[Any]] = []
        self._seats_key: Any = None
        self._seats_part: dict[str, Any] = {}
        self._timeouts_seen: Any = None       # a copy of the state's counts when made
        self._timeouts_part: dict[str, int] = {}
        self._net_parts: dict[str, Any] = {}  # the last mapping made (the same while unchanged)
        self._net_from: tuple[Any, ...] = ()  # … and the parts it was made of
        self.password_digest = P.password_digest(config.password) if config.password else ""
        self.password_check = P.PasswordCheck(self.password_digest, config.password)
        self.guard = HelloGuard()
        self.clock = 0.0                      # the time of what is being handled now
        self.waiting: dict[int, Conn] = {}    # connections yet to say hello, oldest first …
        self.waiting_from: dict[str, dict[int, Conn]] = {}  # … and by address (or account)
        self._idle_check = 0.0                # spectators' silence is checked now and then
        self.opened_at: float | None = None   # the first connection: the lobby's clock starts
        self.expired = False                  # the lobby timed out: the table is closed
        self.start_at: float | None = None    # headless: everyone is ready, the game starts then
        self._lobby_sent = float("-inf")      # the last lobby update to everyone …
        self._lobby_due: float | None = None  # … and the one held back until then
        self.closing = False                  # the table is being closed: nobody's seat is held
        self._settings_key: Any = None
        self._settings_part: dict[str, Any] = {}
        self._save_told = False               # everyone was told the journal is not written
        self._set_bots(config.bots, config.bot_level)

    @classmethod
    def resume(cls, path: Path, config: HostConfig, *, salvage: bool = False,
               explicit: frozenset[str] | set[str] = frozenset(), **kw: Any) -> "TableHost":
        """Carry on a saved table (raises SaveError): same hand, same stacks, same tokens,
        and the table's own settings (:data:`TABLE_SETTINGS`: the turn timer, the pace…) as
        saved, except those named in ``explicit`` (given on the resume's command line), which
        come from ``config``. With ``salvage``, a journal damaged after its checkpoint goes on
        from before the damage (see :meth:`Table.resume`; ``table.salvaged`` says what was
        found)."""
        table = NetTable.resume(path, salvage=salvage)
        try:
            return cls._resume(table, path, config, explicit=explicit, **kw)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            raise SaveError(_("{path} is damaged: its network data cannot be used "
                              "({error})").format(path=path,
                                                  error=f"{type(exc).__name__}: {str(exc)[:80]}")
                            ) from None

    @classmethod
    def _resume(cls, table: NetTable, path: Path, config: HostConfig, *,
                explicit: frozenset[str] | set[str] = frozenset(), **kw: Any) -> "TableHost":
        meta = table.net_saved  # a journal's last net records, or an older save's meta["net"]
        kept = {k: v for k, v in _saved_settings(meta.get("settings")).items()
                if k not in explicit}  # (an older save has none: the config's, as before)
        host = cls(HostConfig(**{**config.__dict__, **kept, "rules": table.state.rules,
                                 "bots": 0, "save_path": path}), **kw)
        host.players = [Player(name=sc.name, bot=sc.bot) for sc in table.seats]
        for i, digest in (meta.get("tokens") or {}).items():
            if 0 <= int(i) < len(host.players):
                host.players[int(i)].token_digest = str(digest)
        if not host.password_digest and isinstance(meta.get("password"), str):
            host.password_digest = meta["password"]  # the table keeps its password
            host.password_check = P.PasswordCheck(host.password_digest)
        for i, uid in (meta.get("accounts") or {}).items():
            if 0 <= int(i) < len(host.players) and isinstance(uid, int):
                host.players[int(i)].uid = uid
        if isinstance(meta.get("host_seat"), int) and 0 <= meta["host_seat"] < len(host.players):
            host.players[meta["host_seat"]].host = True
        if isinstance(meta.get("timeouts"), dict):  # (older saves: in the state itself)
            table.state.timeouts = {int(k): int(v) for k, v in meta["timeouts"].items()}
        commit = dict(meta.get("commit") or {})
        for key in ("zones", "placed", "revealed"):  # kept apart in a journal (they change more often)
            if key in meta:
                commit[key] = meta[key]
        host.committer.restore(table.state, commit)
        host._adopt(table)
        return host

    def _adopt(self, table: NetTable, now: float = 0.0) -> None:
        install_tracking(table.state)
        table.net_meta = self._net_meta
        table.net_appends = self._net_appends
        table.defer = self.defer_saves
        self.table = table
        self.rules = table.state.rules
        cfg = self.config
        self.driver = Driver(table, Pace(delay=cfg.delay, hand_pause=cfg.hand_pause,
                                         turn_timeout=cfg.turn_timeout,
                                         away_after=cfg.away_after,
                                         absent_grace=cfg.absent_grace), now=now)
        self.driver.absent = self._absent
        self.version = len(table.actions)

    def take_save(self) -> JournalWrite | None:
        """With ``defer_saves``: the journal write to do now (with
        :func:`~pokeroulette_tui.net.nettable.write_all`, in any thread) before sending what
        the last step produced; None when the journal is up to date."""
        if self.table is None:
            return None
        return self.table.take_journal()

    def save_failed(self, exc: OSError) -> list[Out]:
        """A journal write from :meth:`take_save` failed: the next one starts afresh. The
        first failure is told to everyone (:meth:`_save_news`): send what this returns."""
        if self.table is None:
            return []
        self.table.write_failed(exc)
        return self._save_news()

    def save_written(self) -> list[Out]:
        """A journal write from :meth:`take_save` is on disk: after a failure, everyone is
        told that the table is saved again (send what this returns)."""
        if self.table is None or not self.table.save_problem:
            return []
        self.table.written()
        return self._save_news()

    def _saved(self, out: list[Out]) -> list[Out]:
        """Without ``defer_saves``: write the journal now, before ``out`` is sent."""
        if not self.defer_saves and self.table is not None:
            self.table.flush()
            return out + self._save_news()
        return out

    def _save_note(self) -> str:
        """What the players are told while the journal cannot be written (no path: the
        host's folders are the host's business; no cards)."""
        return _("The host cannot save this table now: {reason}. Play goes on; a crash of "
                 "the host would lose what is not saved.").format(
                     reason=self.table.save_problem if self.table is not None else "")

    def _save_news(self) -> list[Out]:
        """Tell everyone connected, once, when the journal stops being written (a full or
        read-only disk, its folder gone), and once when it is written again; the host's log
        says it too. Play goes on either way."""
        problem = self.table.save_problem if self.table is not None else ""
        if bool(problem) == self._save_told:
            return []
        self._save_told = bool(problem)
        if problem:
            text = self._save_note()
            log.warning("%s", text)
        else:
            text = _("The host saves this table again.")
            log.info("%s", _("The game is being saved again ({path}).").format(
                path=self.table.save_path))  # type: ignore[union-attr]
        msg = M.Notice(text).to_wire()
        return [Out(c.cid, msg) for c in self._live()]

    def defer(self) -> None:
        """Let the caller write the saves (see :meth:`take_save`)."""
        self.defer_saves = True
        if self.table is not None:
            self.table.defer = True

    def _net_meta(self, whole: bool = False) -> dict[str, Any]:
        """The resume data, in parts the journal writes again only when they change: the
        commitments once a hand, the places of the cards whose index their face does not
        tell (the jokers, for a one-deck hand) as they move. Who was shown what is whole
        once a hand (and in every checkpoint: ``whole``); the openings after that are
        appended (:meth:`_net_appends`). Each part is the same object while it is unchanged,
        and so is the mapping while none changed (the journal then does not look into it)."""
        c = self.committer
        table = self.table
        cards = c.cards
        moving = bool(cards) and table is not None
        changed = whole
        # cards move only by actions (the commitments change with a new shoe or a
        # reshuffle), so where they are is looked at again only after one
        key = (len(table.actions) if table is not None else 0, c.hand_no, id(cards), len(cards))
        if self._zones_key != key:
            self._zones_key = key
            placed = c.misplaced(table.state) if moving else []  # type: ignore[union-attr]
            if placed is not self._zones and placed != self._zones:
                self._zones = placed
                changed = True
        key = (c.hand_no, id(cards))
        if whole or self._revealed_key != key:  # (it restarts the openings to append)
            self._revealed_key = key
            self._revealed = c.revealed_list() if moving else []
            c.take_unsaved()  # (in the whole list)
            changed = True
        # the seats' parts, the timer's counts, the settings: remade only when they change
        key = list(map(_SEAT_KEY, self.players))
        if self._seats_key != key:
            self._seats_key = key
            host_seat = next((i for i, p in enumerate(self.players) if p.host), None)
            self._seats_part = {
                "tokens": {str(i): p.token_digest for i, p in enumerate(self.players)
                           if p.token_digest},
                "accounts": {str(i): p.uid for i, p in enumerate(self.players)
                             if p.uid is not None},
                "host_seat": host_seat}
            changed = True
        timeouts = table.state.timeouts if table is not None else {}
        if self._timeouts_seen != timeouts:  # kept by the host, not replayed from actions
            self._timeouts_seen = dict(timeouts)  # (a copy: the state's changes in place)
            self._timeouts_part = {str(k): v for k, v in timeouts.items()}
            changed = True
        key = _SETTINGS_OF(self.config)
        if self._settings_key != key:  # (the table's settings)
            self._settings_key = key
            self._settings_part = dict(zip(TABLE_SETTINGS, key))
            changed = True
        password = self.password_digest or None
        fixed = c.fixed()
        made = self._net_from
        if changed or not made or made[0] is not password or made[1] is not fixed:
            self._net_from = (password, fixed)
            self._net_parts = {**self._seats_part, "password": password,
                               "settings": self._settings_part, "commit": fixed,
                               "placed": self._zones, "revealed": self._revealed,
                               "timeouts": self._timeouts_part}
        return self._net_parts

    def _net_appends(self) -> dict[str, list[Any]]:
        """The resume data to add to what the journal holds: the openings since the last
        time (each viewer's new indices), written once each."""
        new = self.committer.take_unsaved()
        return {"revealed": new} if new else {}

    def receive(self, cid: int, line: bytes, now: float) -> list[Out]:
        """One line from a connection; every mistake becomes an error, nothing else changes."""
        self.clock = now
        conn = self.conns.get(cid)
        if conn is None or conn.closing:
            return []
        conn.heard = now
        if not line.strip():
            return []  # blank lines keep a connection alive
        if conn.refused:
            conn.closing = True
            return [Out(cid, M.Error(conn.refused, fatal=True).to_wire(), close=True)]
        msg = None
        try:
            msg = P.decode(line)
            if not conn.welcomed:
                told = self._save_told
                out = self._saved(self._hello(conn, msg, now))
                if told and self._save_told and conn.welcomed:  # (else just told to all)
                    out.append(Out(cid, M.Notice(self._save_note()).to_wire()))
                return out
            kind = msg["type"]
            handler = self._handlers.get(kind)
            if handler is None:  # (a second hello, too)
                raise P.ProtocolError(f"unknown message type {kind[:32]!r}")
            if kind != M.Chat.kind:  # (chat is limited once it is known to be a chat line)
                self._limit(conn, kind, now)
            self._may_send(conn, kind)
            return self._saved(handler(self, conn, M.CLIENT[kind].parse(msg), now))
        except P.ProtocolError as exc:
            if not conn.welcomed:  # the first line must be a good hello: else error and close
                exc.fatal = True
                self.guard.log(log, now, "refused a hello from %s: %s", conn.peer, exc.message)
            return self._fail(conn, exc, ref=_ref(msg))

    def disconnect(self, cid: int, now: float) -> list[Out]:
        """The connection is gone (closed, reset, too slow): hold the seat, tell the others."""
        self.clock = now
        conn = self.conns.pop(cid, None)
        if conn is not None:
            self._admitted(conn)
        if conn is None or conn.player is None or conn.player.cid != cid:
            return []
        player = conn.player
        player.cid = None
        if self.closing:  # the host is closing the table: everyone is leaving, nothing held
            return []
        if self.table is not None and self.table.state.game_over:
            return []  # (everyone was said goodbye: there is no seat to hold)
        if not self.started:
            self.players.remove(player)
            return [*self._notice(_("{name} left the lobby").format(name=player.name)),
                    *self._lobby_all()]
        seat = self.seat_of(player)
        if self.driver is not None:
            self.driver.arm_timer(now)  # (its turn, with no turn timer: it now waits absent_grace)
        words = self._held_words(conn.quitting).format(
            name=player.name, seconds=f"{self.config.absent_grace:g}")
        out = [*self._notice(words)] if not self._left(seat) else []
        return out + self._lobby_all()

    def _held_words(self, quitting: bool) -> str:
        """What everyone is told when a seated player goes: the seat is held, and who plays
        its turns meanwhile (the turn timer; with none, the table after
        :attr:`HostConfig.absent_grace`; or nobody: the table waits)."""
        cfg = self.config
        if cfg.turn_timeout > 0:
            return (_("{name} quit; the seat is held (the turn timer plays for them)")
                    if quitting else
                    _("{name} lost the connection; the seat is held (the turn timer plays for "
                      "them)"))
        if cfg.absent_grace > 0:
            return (_("{name} quit; the seat is held (not back within {seconds} s, the table "
                      "checks or folds for them)") if quitting else
                    _("{name} lost the connection; the seat is held (not back within {seconds} "
                      "s, the table checks or folds for them)"))
        return (_("{name} quit; the seat is held (the table waits for them: no turn timer)")
                if quitting else
                _("{name} lost the connection; the seat is held (the table waits for them: no "
                  "turn timer)"))

    def _absent(self, seat: int) -> bool:
        """Whether the seat's player is not connected (a person's seat, not a bot's)."""
        if not 0 <= seat < len(self.players):
            return False
        p = self.players[seat]
        return p.bot is None and p.cid is None

    def _may_send(self, conn: Conn, kind: str) -> None:
        """Refuse a lobby message that this connection may not send now, before its fields
        are read (a ``ready`` during the game is refused as such, whatever it says)."""
        if kind == M.Ready.kind:
            self._may_ready(conn)
        elif kind in _LEADS:
            self._may_lead(conn, _LEADS[kind])
        elif kind == M.HistoryRequest.kind and self.table is None:
            raise P.ProtocolError(_("the game has not started"))

    #: What a welcomed connection may send, by wire name: each handler gets the message
    #: parsed into its class (:mod:`~pokeroulette_tui.net.messages`), its fields checked.
    _handlers: dict[str, Callable[..., list[Out]]] = {
        M.Ready.kind: Lobby._on_ready, M.Chat.kind: Broadcast._on_chat, M.Act.kind: Turns._on_act,
        M.Start.kind: Lobby._on_start, M.Bots.kind: Lobby._on_bots, M.Kick.kind: Lobby._on_kick,
        M.Back.kind: Turns._on_back, M.HistoryRequest.kind: Admission._on_history,
        M.Leave.kind: Turns._on_leave, M.Ping.kind: Broadcast._on_ping,
        M.Quit.kind: Turns._on_quit,
    }


#: The messages only the lobby's leader may send, and what they do.
_LEADS = {M.Bots.kind: "seats bots", M.Kick.kind: "removes players",
          M.Start.kind: "starts the game"}


def _ref(msg: Any) -> int | None:
    if isinstance(msg, dict) and msg.get("type") == "act":
        ref = msg.get("id")
        if isinstance(ref, int) and not isinstance(ref, bool):
            return ref
    return None
