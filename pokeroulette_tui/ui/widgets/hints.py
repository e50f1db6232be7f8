"""The hints panel: this seat's odds, estimated in a worker thread from its own view."""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from dataclasses import dataclass
from typing import Callable

from rich.text import Text
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static
from textual.worker import get_current_worker

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui import hints as hints_module
from pokeroulette_tui.ui.hints import (Estimate, Unbroken, beats_text, can_hint, estimates,
                                       hints_text)

log = logging.getLogger(__name__)


class HintsPanel(VerticalScroll, can_focus=False):
    """Hints for the seat whose view the screen sets (``view``; None shows no numbers).

    Every new view clears what was shown at once and starts new estimates in a worker
    thread (the one before is told to stop; whatever it still sends is dropped), so the
    table never waits for them and a panel never shows another view's numbers.
    ``wide``: the "what beats what" card is shown under the hints too.
    """

    DEFAULT_CSS = """
    HintsPanel { display: none; height: auto; padding: 0 1; }
    HintsPanel #hints-beats { margin: 1 0 0 0; }
    """

    view: reactive[SeatView | None] = reactive(None)
    public: reactive[SeatView | None] = reactive(None)
    """The public view: the "what beats what" card (the rules only)."""
    allowed: reactive[bool] = reactive(True)
    hot_seat: reactive[bool] = reactive(False)
    wide: reactive[bool] = reactive(False)

    #: The estimates' random numbers (None: fresh each time) and clock: fixed in tests.
    seed: int | None = None
    clock: Callable[[], float] = staticmethod(time.perf_counter)
    #: Seconds a view must stay before the estimates start (a burst of bets costs nothing).
    settle = 0.08

    @dataclass
    class Estimated(Message):
        """The worker has a (better) estimate for the view numbered ``token``."""

        token: int
        estimate: Estimate

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._token = 0
        self._shown: SeatView | None = None
        self._estimate: Estimate | None = None

    def compose(self):
        yield Static(id="hints-text")
        yield Static(id="hints-beats")

    # -- watchers ---------------------------------------------------------------------
    def watch_view(self, view: SeatView | None) -> None:
        self.restart()

    def watch_allowed(self) -> None:
        self.restart()

    def watch_hot_seat(self) -> None:
        self._draw()

    def watch_wide(self) -> None:
        self._draw()

    def watch_public(self) -> None:
        self._draw()

    # -- the estimates ----------------------------------------------------------------
    def _stop(self) -> None:
        self._token += 1
        self.workers.cancel_group(self, "hints")

    def restart(self) -> None:
        """Forget the numbers shown (they were for another view) and estimate afresh."""
        self._stop()
        view = self.view if self.allowed else None
        self._shown = view
        self._estimate = None
        self._draw()
        if view is not None and can_hint(view) and self.display and self.is_mounted:
            token = self._token
            self.run_worker(lambda: self._work(view, token), thread=True, exclusive=True,
                            group="hints", exit_on_error=False)

    def _work(self, view: SeatView, token: int) -> None:
        """In a worker thread: post each better estimate until done or told to stop."""
        worker = get_current_worker()

        def stop() -> bool:
            return worker.is_cancelled or token != self._token

        time.sleep(self.settle)
        if stop():
            return
        rng = random.Random(self.seed)
        last = Estimate()
        try:
            for est in estimates(view, rng, stop=stop, clock=self.clock,
                                 budget=hints_module.BUDGET):
                if stop():
                    return
                last = est
                self.post_message(self.Estimated(token, est))
        except Exception:  # a bug in an estimate must not leave the panel spinning
            log.exception("a hint could not be estimated")
            self.post_message(self.Estimated(token, dataclasses.replace(
                last, done=True, failed=True)))

    def on_hints_panel_estimated(self, message: Estimated) -> None:
        message.stop()
        if message.token == self._token:
            self._estimate = message.estimate
            self._draw()

    # -- drawing ----------------------------------------------------------------------
    def _draw(self) -> None:
        if not self.is_mounted:
            return
        view = self._shown
        text = hints_text(view, self._estimate, allowed=self.allowed, hot_seat=self.hot_seat,
                          compact=not self.wide)
        # (a Finnish or Swedish "41 %" wraps whole; text with no such space is drawn as is)
        self.query_one("#hints-text", Static).update(
            Unbroken(text) if "\u00a0" in text.plain else text)
        beats = self.query_one("#hints-beats", Static)
        pub = self.public
        if self.wide and pub is not None:
            card = Text()
            card.append(_("What beats what"), style="bold")
            card.append(" " + _("(w: the whole card)") + "\n", style="dim")
            card.append_text(beats_text(pub.rules, pub.suit_order, chain=True))
            beats.update(card)
            beats.display = True
        else:
            beats.display = False
