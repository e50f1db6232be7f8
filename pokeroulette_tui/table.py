"""A running table: the engine state, its bots, the action log and its journal.

Shared by the local session and the network server, so both play by one driver. The
table is saved as a write-ahead journal (:mod:`pokeroulette_tui.engine.journal`): one
line appended per action, so saving costs the same in the thousandth hand as in the first.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pokeroulette_tui.bots import Bot, make_bot
from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine import save as saving
from pokeroulette_tui.engine.actions import Action, IllegalAction, Leave
from pokeroulette_tui.engine.events import Event, add_to_history
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.state import LEFT, GameState
from pokeroulette_tui.engine.view import SeatView, view_for

log = logging.getLogger(__name__)

HISTORY_HANDS = 50
"""Hands of events kept in memory (and found again on resume) for the hand history."""
COMPACT_BYTES = 4 * 1024 * 1024
"""A journal longer than this starts afresh from a checkpoint at the next hand."""


@dataclass
class SeatConfig:
    """Who sits in a seat: a name and either a human or a bot of a level."""

    name: str
    bot: str | None = None  # None = human; else a bot level


@dataclass
class Table:
    """Engine state plus everything needed to run it and to resume it after a crash."""

    state: GameState
    seats: list[SeatConfig]
    seed: int | None = None
    actions: list[Action] = field(default_factory=list)
    history: list[list[Event]] = field(default_factory=list)  # events by hand, unredacted
    save_path: Path | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    save_error: str = ""  # the last autosave failure, for the UI to show ("" = saving fine)
    salvaged: str = ""  # resumed from before damage in its journal: what the damage was
    damaged_copy: Path | None = None  # … and where the damaged journal was kept, whole
    bot_seed: int | None = None  # the bots' generators are seeded from it before each choice
    _journal: journal.JournalFile | None = field(default=None, repr=False, compare=False)

    @classmethod
    def create(cls, rules: RuleSet, seats: Sequence[SeatConfig], *, seed: int | None = None,
               save_path: Path | None = None) -> "Table":
        state = new_game(rules, [s.name for s in seats], seed=seed,
                         bots=[s.bot is not None for s in seats])
        table = cls(state=state, seats=list(seats), seed=seed, save_path=save_path)
        table._make_bots()
        return table

    @classmethod
    def resume(cls, path: Path, *, salvage: bool = False) -> "Table":
        """Load a saved table (raises SaveError with a readable message, never another error).

        A journal goes on where it stopped (a torn last line is cut off); a save of the
        older one-document format is read and continued as a journal. With ``salvage``, a
        journal damaged after its first line goes on from before the damage: a copy of it,
        whole, is kept first (``damaged_copy``; if none can be made, SaveError), and
        ``salvaged`` says what the damage was.
        """
        try:
            with open(path, "rb") as f:
                head = f.read(200)
        except FileNotFoundError:
            raise saving.SaveError(_("no save file at {path}").format(path=path)) from None
        except OSError as exc:
            raise saving.SaveError(_("cannot read {path}: {problem}").format(
                path=path, problem=saving.os_problem(exc))) from None
        loaded = journal.load(path, salvage=salvage) if journal.is_journal(head) else None
        saved = loaded if loaded is not None else saving.load(path)
        try:
            table = cls._from_saved(saved, path)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            raise saving.SaveError(_("{path} is damaged: its table data cannot be used ({problem})").format(
                path=path, problem=saving.problem_words(exc))) from None
        if loaded is not None:
            table.history = [*loaded.hands, *([loaded.current] if loaded.current else [])]
            del table.history[:-HISTORY_HANDS]
            if loaded.damaged:  # the damaged journal is kept whole before it is cut
                table.damaged_copy = saving.copy_aside(path)
                if table.damaged_copy is None:
                    raise saving.SaveError(loaded.damaged)
                table.salvaged = loaded.damaged
            table._attach(path, loaded.good_bytes)
        return table

    @classmethod
    def _from_saved(cls, saved: saving.Saved, path: Path) -> "Table":
        raw_seats = saved.meta.get("seats", [])
        seats = [SeatConfig(name=str(s["name"]), bot=None if s.get("bot") is None else str(s["bot"]))
                 for s in raw_seats] or [
            SeatConfig(name=s.name, bot="simple" if s.is_bot else None) for s in saved.state.seats]
        if len(seats) != saved.state.n:
            raise ValueError(f"{len(seats)} seat settings for {saved.state.n} seats")
        history = [[Event.from_dict(e) for e in hand] for hand in saved.meta.get("history", [])]
        bot_seed = saved.meta.get("bot_seed")
        table = cls(state=saved.state, seats=seats, seed=saved.seed, actions=saved.actions,
                    history=history, save_path=path,
                    bot_seed=bot_seed if type(bot_seed) is int else None)
        table._make_bots()
        table._replay_reads()
        return table

    def _replay_reads(self) -> None:
        """Bots that learn from what they see (their reads of the other seats' habits) are
        shown again, in order, every view they chose from, replayed from the table's seed, so
        a resumed table plays on exactly as it would have. An unseeded table cannot be
        replayed: its bots start their reads afresh."""
        watchers = {i: b for i, b in self.bots.items() if hasattr(b, "observe")}
        if not watchers or self.seed is None or not self.actions:
            return
        state = new_game(self.state.rules, [sc.name for sc in self.seats], seed=self.seed,
                         bots=[sc.bot is not None for sc in self.seats])
        try:
            for action in self.actions:
                bot = watchers.get(action.seat) if action.seat is not None else None
                if bot is not None and not dealer_to_act(state):
                    bot.observe(view_for(state, action.seat))
                apply(state, action)
        except (IllegalAction, ValueError):  # a log that does not replay: reads as they are
            log.warning("the bots' reads could not be replayed from the saved actions")

    def _make_bots(self) -> None:
        if self.bot_seed is None:
            self.bot_seed = self.seed if self.seed is not None else random.randrange(1 << 30)
        for i, sc in enumerate(self.seats):
            if sc.bot is not None:
                self.bots[i] = make_bot(sc.bot, random.Random(self.bot_seed * 7919 + i))

    # -- queries ----------------------------------------------------------------
    @property
    def human_seats(self) -> list[int]:
        return [i for i, sc in enumerate(self.seats) if sc.bot is None]

    def view(self, seat: int | None) -> SeatView:
        return view_for(self.state, seat)

    def legal(self, seat: int | None) -> list[Action]:
        return legal_actions(self.state, seat)

    def waiting_for_human(self) -> int | None:
        """The human seat whose decision the game waits for, if any."""
        s = self.state
        if s.game_over or dealer_to_act(s) or s.to_act is None:
            return None
        return s.to_act if s.to_act not in self.bots else None

    def bot_turn(self) -> tuple[Bot, SeatView | None, list[Action]] | None:
        """The bot to act with what it may see (its view and legal actions), if a bot is to act.

        The view is taken now, so ``bot.choose`` may run in a worker thread while the table
        goes on; compare ``len(actions)`` before applying its choice.
        """
        s = self.state
        if s.game_over or dealer_to_act(s):
            return None
        seat = s.to_act
        if seat is None or seat not in self.bots or s.seats[seat].status == LEFT:
            return None
        bot = self.bots[seat]
        legal = legal_actions(s, seat)
        if not legal:
            return None
        rng = getattr(bot, "rng", None)
        if isinstance(rng, random.Random) and not isinstance(rng, random.SystemRandom):
            # each choice draws from a generator seeded by the table and the move number, so a
            # resumed table plays on exactly as it would have (no generator state to save)
            rng.seed((self.bot_seed or 0) * 7919 + seat * 104729 + len(self.actions))
        return bot, (view_for(s, seat) if bot.needs_view else None), legal

    def auto_action(self) -> Action | None:
        """The dealer's next step or the bot to act's choice (None if a human must act)."""
        s = self.state
        if s.game_over:
            return None
        if dealer_to_act(s):
            return legal_actions(s, None)[0]
        turn = self.bot_turn()
        if turn is None:
            return None
        bot, view, legal = turn
        return bot.choose(view, legal)

    # -- changes ----------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check and play ``action``; log it, keep the history, write it to the journal."""
        events = apply(self.state, action)  # checks it first: nothing changes if illegal
        self.actions.append(action)
        finished = add_to_history(self.history, events)
        del self.history[:-HISTORY_HANDS]
        self._record(action, events, finished)
        return events

    def leave(self, seat: int) -> list[Event]:
        try:
            return self.apply(Leave(seat=seat))
        except IllegalAction:
            return []

    # -- the journal ------------------------------------------------------------
    def _record(self, action: Action, events: list[Event], finished: list[list[Event]]) -> None:
        """Append the action (and any hand it finished) to the journal: one write, no
        rewrite. A failure (disk full, folder gone) never stops the game: it is logged and
        kept in ``save_error``, and the next action tries a fresh checkpoint."""
        if self.save_path is None:
            return
        file = self._journal
        if file is None or self._needs_checkpoint(file, action, events):
            self.autosave()  # a fresh checkpoint, this action included
            return
        try:
            # (marked as one write: a load never keeps a finished hand without its action)
            file.append("".join(journal.in_one_write(
                [*(journal.hand_line(h) for h in finished),
                 journal.action_line(action, self.state, events)])))
        except OSError as exc:
            self._failed(exc)
        else:
            self.save_error = ""

    def _needs_checkpoint(self, file: journal.JournalFile, action: Action,
                          events: list[Event]) -> bool:
        """The journal must start afresh: the table is saved elsewhere now, or the journal
        has grown long and this step begins a new deal."""
        where = self.save_path
        moved = file.path != (where if isinstance(where, Path) else Path(where or ""))
        return moved or (
            file.size > COMPACT_BYTES and journal.shuffles(action, events))

    def autosave(self) -> None:
        """Save the table now as a fresh checkpoint (the journal starts again from it).
        Never raises for a disk problem: it is kept in ``save_error``."""
        if self.save_path is None:
            return
        try:
            self._checkpoint(Path(self.save_path))
        except OSError as exc:
            self._failed(exc)
        else:
            self.save_error = ""

    def _checkpoint(self, path: Path) -> None:
        if self._journal is not None:
            self._journal.close()
        self._journal = None
        file = journal.JournalFile(path)
        file.start(self._checkpoint_text(self.meta()))
        self._journal = file

    def _checkpoint_text(self, meta: dict[str, Any]) -> str:
        """A journal that starts here: the checkpoint, then the finished hands kept."""
        current = self.history[-1] if self.history else []
        return (journal.checkpoint(self.state, self.actions, seed=self.seed,
                                   names=[s.name for s in self.seats], meta=meta,
                                   events=current)
                + "".join(journal.hand_line(h) for h in self.history[:-1]))

    def _attach(self, path: Path, good_bytes: int) -> None:
        """Go on appending to the journal just loaded (its torn last line cut off)."""
        file = journal.JournalFile(path)
        try:
            file.resume(good_bytes)
        except OSError as exc:
            self._failed(exc)
            return
        self._journal = file

    def _failed(self, exc: OSError) -> None:
        error = _("autosave to {path} failed: {problem}").format(path=self.save_path,
                                                                 problem=saving.os_problem(exc))
        if error != self.save_error:  # (logged once, not again at each action that fails)
            log.error("%s", error)
        self.save_error = error
        if self._journal is not None:
            self._journal.close()
        self._journal = None  # the next action writes a whole checkpoint again

    def save_and_close(self) -> None:
        """At the end of a session: a journal written without a failure holds every action
        already, so it is synced and closed as it is (a fresh checkpoint then would be a
        rewrite that can fail where appending did not: a folder made read-only, say, and
        say the game was not saved when it was). Otherwise a fresh checkpoint is tried.
        Never raises for a disk problem: it is kept in ``save_error``."""
        if self.save_path is None:
            return
        if self._journal is not None and not self.save_error \
                and self._journal.path == Path(self.save_path):
            self.close()
            if not self.save_error:
                return
        self.autosave()
        self.close()

    def close(self) -> None:
        """Flush and close the journal (the table may be resumed from it)."""
        if self._journal is not None:
            try:
                self._journal.sync()
            except OSError as exc:
                self._failed(exc)  # closes it
                return
            self._journal.close()
            self._journal = None

    def meta(self) -> dict[str, Any]:
        return {"seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
                "bot_seed": self.bot_seed}
