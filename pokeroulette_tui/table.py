"""A running table: the engine state, its bots, the action log and the autosave.

Shared by the local session and the network server, so both play by one driver.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pokeroulette_tui.bots import Bot, make_bot
from pokeroulette_tui.engine import save as saving
from pokeroulette_tui.engine.actions import Action, IllegalAction, Leave
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import apply, check, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.state import LEFT, GameState
from pokeroulette_tui.engine.view import SeatView, view_for

log = logging.getLogger(__name__)


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

    @classmethod
    def create(cls, rules: RuleSet, seats: Sequence[SeatConfig], *, seed: int | None = None,
               save_path: Path | None = None) -> "Table":
        state = new_game(rules, [s.name for s in seats], seed=seed,
                         bots=[s.bot is not None for s in seats])
        table = cls(state=state, seats=list(seats), seed=seed, save_path=save_path)
        table._make_bots()
        return table

    @classmethod
    def resume(cls, path: Path) -> "Table":
        """Load a saved table (raises SaveError with a readable message, never another error)."""
        saved = saving.load(path)
        try:
            return cls._from_saved(saved, path)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            raise saving.SaveError(f"{path} is damaged: its table data cannot be used "
                                   f"({type(exc).__name__}: {str(exc)[:80]})") from None

    @classmethod
    def _from_saved(cls, saved: saving.Saved, path: Path) -> "Table":
        raw_seats = saved.meta.get("seats", [])
        seats = [SeatConfig(name=str(s["name"]), bot=None if s.get("bot") is None else str(s["bot"]))
                 for s in raw_seats] or [
            SeatConfig(name=s.name, bot="simple" if s.is_bot else None) for s in saved.state.seats]
        if len(seats) != saved.state.n:
            raise ValueError(f"{len(seats)} seat settings for {saved.state.n} seats")
        history = [[Event.from_dict(e) for e in hand] for hand in saved.meta.get("history", [])]
        table = cls(state=saved.state, seats=seats, seed=saved.seed, actions=saved.actions,
                    history=history, save_path=path)
        table._make_bots()
        for key, rng_state in saved.meta.get("bot_rng", {}).items():
            bot = table.bots.get(int(key))
            rng = getattr(bot, "rng", None)
            if isinstance(rng, random.Random) and isinstance(rng_state, list) and len(rng_state) == 3:
                try:
                    rng.setstate((rng_state[0], tuple(rng_state[1]), rng_state[2]))
                except (TypeError, ValueError):
                    pass  # an odd generator state only changes the bots' luck
        return table

    def _make_bots(self) -> None:
        base = self.seed if self.seed is not None else random.randrange(1 << 30)
        for i, sc in enumerate(self.seats):
            if sc.bot is not None:
                self.bots[i] = make_bot(sc.bot, random.Random(base * 7919 + i))

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
        """Check and play ``action``; log it, keep the history, autosave."""
        check(self.state, action)
        events = apply(self.state, action)
        self.actions.append(action)
        for e in events:
            if not self.history or (e.hand_no and self.history[-1] and
                                    self.history[-1][-1].hand_no != e.hand_no):
                self.history.append([])
            self.history[-1].append(e)
        self.autosave()
        return events

    def leave(self, seat: int) -> list[Event]:
        try:
            return self.apply(Leave(seat=seat))
        except IllegalAction:
            return []

    def autosave(self) -> None:
        """Save after every action; a failure (disk full, folder gone) never stops the game:
        it is logged and kept in ``save_error`` for the screen to show."""
        if self.save_path is None:
            return
        try:
            saving.save(self.save_path, self.state, self.actions, seed=self.seed,
                        names=[s.name for s in self.seats], meta=self.meta())
        except OSError as exc:
            self.save_error = f"autosave to {self.save_path} failed: {exc.strerror or exc}"
            log.error("%s", self.save_error)
        else:
            self.save_error = ""

    def meta(self) -> dict[str, Any]:
        bot_rng = {}
        for seat, bot in self.bots.items():
            rng = getattr(bot, "rng", None)
            if isinstance(rng, random.Random) and not isinstance(rng, random.SystemRandom):
                version, internal, gauss = rng.getstate()
                bot_rng[str(seat)] = [version, list(internal), gauss]
        return {"seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
                "history": [[e.to_dict() for e in hand] for hand in self.history[-50:]],
                "bot_rng": bot_rng}
