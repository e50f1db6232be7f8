"""The tutorials' session and words: a prepared table played step by step, and where it stopped.

:class:`TutorialSession` is a :class:`~pokeroulette_tui.session.Session` over a real table
dealt from a prepared deck (:mod:`pokeroulette_tui.engine.tutorial_deals`). It plays the
dealer's and the bots' moves of each step itself, takes only the move the step asks of the
player, and remembers the step reached in a small file in the data folder, so that a
tutorial left half-way resumes there (by replaying the engine to that step).
:data:`NOTES` are what the table screen says at each step.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator

from pokeroulette_tui.engine.actions import Action, IllegalAction
from pokeroulette_tui.engine.events import Event, HandOver, redact_all
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.tutorial_deals import DEALS, Beat, PreparedDeal
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.paths import data_home
from pokeroulette_tui.session import Session, Update, queued_updates
from pokeroulette_tui.table import SeatConfig, Table

TUTORIALS = {"roulette": N_("Poker Roulette"), "draw": N_("five-card draw")}
"""The tutorials by name, with the game each teaches (marked: said with ``_()``)."""


@dataclass(frozen=True)
class Note:
    """What the screen says at one step: the note beside the cards, the keys that go on
    (words for the note's last line), the table's keys the step lets through (action names
    of the table screen), and the hint a wrong key gets. The words are English, marked with
    ``N_``: the screen says them with ``_()`` (:meth:`TutorialSession.refusal` does too).
    ``in_app`` and ``on_command_line``: a sentence said after the note inside the app, or in
    ``pokeroulette tutorial`` (which ends the program at the end), where they differ."""

    text: str
    keys: str = N_("Enter: go on")
    actions: frozenset[str] = frozenset()
    hint: str = N_("Press Enter to go on.")
    in_app: str = ""
    on_command_line: str = ""


def _move(text: str, keys: str, actions: str, hint: str) -> Note:
    return Note(text, keys, frozenset(actions.split()), hint)


_RESULT = _move(N_("Press s to see the result as a game shows it; Enter closes it again."),
                N_("s: the result"), "last_hand", N_("Press s to see the result."))

NOTES: dict[str, dict[str, Note]] = {
    "roulette": {
        "welcome": Note(N_("Poker Roulette. Collect cards in your stock: at the end its best five "
                           "cards are your hand. You play against Bo and Cy. This table bets once, "
                           "at the end."), N_("Enter: deal")),
        "stock": Note(N_("Each player gets a stock card face down. Yours, the K♠ below, is "
                         "private: only you see it. Bo's and Cy's are hidden from you.")),
        "actives": Note(N_("Then two active cards each, face down: nobody sees them yet, not "
                           "even you. The match card, 5♠, is face up in the centre."),
                        N_("Enter: turn the actives")),
        "turn": Note(N_("All turn their actives. A card matches the match card by suit or by "
                        "rank: your 7♠ by suit, your 5♣ by rank. Both go to your stock.")),
        "no_match": Note(N_("Bo's 2♣ and J♦ match neither suit nor rank of the 5♠: both go to "
                            "the discard pile.")),
        "joker": Note(N_("Cy turned a joker ★. A joker never matches by itself: beside a card "
                         "that matches (Cy's 8♠, by suit) both are kept; beside one that does "
                         "not, both are discarded.")),
        "round2": Note(N_("Round 2: who added a card gets 2 new actives, the others 1 (Bo). The "
                          "5♠ went to the discards; the new match card is Q♥."),
                       N_("Enter: turn the actives")),
        "claim": Note(N_("Your Q♣ and Q♦ both have the match card's rank: you claim the Q♥ too. "
                         "Three queens! Bo's one active, 7♥, matches by suit.")),
        "round3": Note(N_("Round 3: the match card is a joker ★."), N_("Enter: turn the actives")),
        "joker_match": Note(N_("A joker match card: every player keeps all actives. Two jokers, "
                               "or a joker active against it, would be discarded.")),
        "wild": Note(N_("A joker in a stock is wild at the end: it stands for any card. Cy's ★ "
                        "and J♣ already make a pair of jacks (see Cy's line).")),
        "round4": Note(N_("Round 4: your 3♠ matches the 6♠ by suit; the J♥ is discarded. Five "
                          "spades in your stock: a flush.")),
        "round5": Note(N_("Round 5: Bo's 9♥ matches the 9♣ by rank. Bo shows four hearts: if "
                          "Bo's hidden stock card is a heart too, that is a flush.")),
        "rounds_go_on": Note(N_("Rounds go on until the deck cannot give every player new "
                                "actives and a match card."), N_("Enter: the dealer plays on")),
        "end_of_dealing": Note(N_("Rounds 6 to 9 matched nothing. 3 cards are left and 4 are "
                                  "needed: dealing ends, the rest stays undealt. The final "
                                  "betting round: Bo and Cy check (bet nothing).")),
        "bet": _move(N_("Your turn: check, bet or fold. Press b to bet, then Enter to bet 2 "
                        "chips (the least you may bet)."), N_("b, then Enter: bet 2"), "bet",
                     N_("Press b to bet, then Enter (the box shows 2).")),
        "showdown": Note(N_("Bo calls your 2 chips. Cy folds, giving up the hand and the chips "
                            "already in the pot. The showdown: stocks are shown.")),
        "best_five": Note(N_("Each hand is the best five cards of a stock (bold below). Yours: "
                             "K♠ 9♠ 7♠ 4♠ 3♠, a flush. It beats your three queens.")),
        "tie_break": Note(N_("Bo's flush has the same ranks, K 9 7 4 3. Then the suits decide, "
                             "highest card first. Here ♠ > ♥ > ♦ > ♣ (usually drawn before the "
                             "first hand): K♠ beats K♥. You win the pot!")),
        "result": _RESULT,
        "the_end": Note(N_("That is Poker Roulette! Five-card draw has a tutorial too."),
                        N_("Enter: end the tutorial"),
                        in_app=N_("Start it on the start screen: press l, then d."),
                        on_command_line=N_("Start it with: pokeroulette tutorial draw.")),
    },
    "draw": {
        "welcome": Note(N_("Five-card draw (Mörkpoker). No betting here: everyone has 6 forfeit "
                           "tokens, and each deal's weakest hand loses one."), N_("Enter: Bo deals")),
        "cut": _move(N_("Bo shuffled. The player on the dealer's right cuts: you. The cut is at "
                        "26, the middle (← → move it). Press Enter to cut there."),
                     N_("Enter: cut"), "cut cut_move cut_number",
                     N_("Press Enter to cut the deck in the middle, at 26.")),
        "dealt": Note(N_("Five cards each, one at a time. You hold a pair of queens. The draw "
                         "goes round from the dealer's left: Cy has exchanged 3 cards.")),
        "exchange": _move(N_("Your draw: exchange up to 3 cards. Keep the queens: press 2, 4 and "
                             "5 to choose 7♦, 4♣ and 2♠, then Enter."),
                          N_("2 4 5, then Enter"), "toggle draw",
                          N_("Press 2, 4 and 5 to choose 7♦, 4♣ and 2♠, then Enter.")),
        "drawn": Note(N_("You drew Q♦ 8♣ 3♥: three queens! Exchanging nothing is standing pat "
                         "(p in a game).")),
        "showdown": Note(N_("Bo exchanged 1 card. All have drawn: the showdown. Poker ranking: "
                            "your three queens beat Bo's two pair and Cy's ace high.")),
        "forfeit": Note(N_("The weakest hand, Cy's ace high, loses a token: 6 → 5. At 0 the game "
                           "ends and that player loses. Tied weakest hands play a deciding hand.")),
        "result": _RESULT,
        "the_end": Note(N_("That is five-card draw! Poker Roulette has a tutorial too."),
                        N_("Enter: end the tutorial"),
                        in_app=N_("Start it on the start screen: press l, then r."),
                        on_command_line=N_("Start it with: pokeroulette tutorial roulette.")),
    },
}

WRONG_MOVE = {
    "bet": N_("For this lesson bet 2 chips: press b, then Enter (the box shows 2)."),
    "cut": N_("For this lesson cut in the middle, at 26: ← → move the cut back, then Enter."),
    "exchange": N_("For this lesson keep the queens: choose 7♦, 4♣ and 2♠ (2, 4 and 5; a "
                   "number again puts a card back), then Enter."),
}
"""What a move other than the one a step asks for gets (the step's name: the words)."""


# -- where each tutorial stopped -------------------------------------------------------------

def progress_path() -> Path:
    """The file of the step each tutorial reached (in the data folder, not made here)."""
    return data_home() / "tutorial.json"


def read_progress() -> dict[str, int]:
    """Tutorial name -> the step it stopped at (nothing for one not begun or finished)."""
    from pokeroulette_tui.engine.folders import checked_dir

    path = progress_path()
    try:
        if checked_dir(path.parent) is None:  # (another account's folder: refused, not read)
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items()
            if k in DEALS and type(v) is int and 0 < v < len(DEALS[k].beats)}


def write_progress(name: str, step: int | None) -> None:
    """Remember that ``name`` stopped at ``step`` (None: finished or not begun). A disk
    problem is ignored: the tutorial then starts again from the top next time."""
    from pokeroulette_tui.engine.folders import atomic_write
    from pokeroulette_tui.paths import data_dir

    progress = read_progress()
    if step:
        progress[name] = step
    else:
        progress.pop(name, None)
    try:
        data_dir()  # made owner-only, like every folder of ours
        atomic_write(progress_path(), json.dumps(progress, indent=2))
    except OSError:
        pass


# -- the session -----------------------------------------------------------------------------

class TutorialHint(IllegalAction):
    """Not the move this step of the tutorial asks for; the message says which it is."""


class TutorialSession(Session):
    """A prepared table, moved on one step at a time (:meth:`go_on` or the asked move).

    ``step`` resumes a tutorial: the engine is replayed to it (the table's and the player's
    moves of every earlier step), then that step's own table moves are played.
    """

    holds_results = True

    def __init__(self, name: str, *, step: int = 0, player: str | None = None,
                 remember: bool = True) -> None:
        self.name = name
        self.deal: PreparedDeal = DEALS[name]
        self.notes = NOTES[name]
        self.remember = remember
        state = self.deal.new_game(player)
        self.table = Table(state=state, seats=[  # (the bots' moves are the steps' own)
            SeatConfig(s.name, None if i == self.deal.human else "scripted")
            for i, s in enumerate(state.seats)])
        self.rules = state.rules
        self.local_seats = (self.deal.human,)
        self._queue: asyncio.Queue[Update] = asyncio.Queue()
        self.step = 0
        self.finished = False
        step = max(0, min(step, len(self.deal.beats) - 1))
        self._begin(quiet=True)
        while self.step < step:
            beat = self.beat
            if beat.player is not None:
                self.table.apply(beat.player)
            self.step += 1
            self._begin(quiet=True)

    # -- the steps ---------------------------------------------------------------------------
    @property
    def beat(self) -> Beat:
        return self.deal.beats[self.step]

    @property
    def note(self) -> Note:
        return self.notes[self.beat.name]

    @property
    def steps(self) -> int:
        return len(self.deal.beats)

    def _begin(self, *, quiet: bool = False) -> None:
        """Play the moves the table makes as this step begins."""
        for action in self.beat.table:
            events = self.table.apply(action)
            if not quiet:
                self._publish(events)

    def _next(self) -> None:
        if self.step + 1 >= self.steps:
            self.finished = True
            if self.remember:
                write_progress(self.name, None)
            return
        self.step += 1
        self._begin()
        if self.remember:
            write_progress(self.name, self.step)

    def go_on(self) -> None:
        """The player has read this step: the next one (a step asking for a move waits)."""
        if self.beat.player is None and not self.finished:
            self._next()

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not this step's move, in words for the player (None: it is)."""
        wanted = self.beat.player
        if wanted is not None and action == wanted:
            return None
        return _(WRONG_MOVE.get(self.beat.name, self.note.hint))

    # -- the Session -------------------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        if seat is not None and seat not in self.local_seats:
            raise IllegalAction(_("that seat is not played at this terminal"))
        return self.table.view(seat)

    async def act(self, action: Action) -> None:
        problem = self.refusal(action)
        if problem is not None:
            raise TutorialHint(problem)
        self._publish(self.table.apply(action))
        self._next()

    def updates(self) -> AsyncIterator[Update]:
        return queued_updates(self._queue)

    def history(self) -> list[list[Event]]:
        return [redact_all(hand, self.log_viewer) for hand in self.table.history]

    def _publish(self, events: list[Event]) -> None:
        over = any(isinstance(e, HandOver) for e in events)
        self._queue.put_nowait(Update(events=tuple(redact_all(events, self.log_viewer)),
                                      result=self.table.state.result if over else None))

    async def close(self) -> None:
        if self.remember and not self.finished:
            write_progress(self.name, self.step)
        self._queue.put_nowait(Update(closed=True))
