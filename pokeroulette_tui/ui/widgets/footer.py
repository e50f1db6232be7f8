"""The key footer: Textual's, without its leak, its late first keys and its idle rebuilds."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from pokeroulette_tui.engine.i18n import _, language

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.screen import Screen


class TidyFooter(Footer):
    """Textual's :class:`Footer`, changed in six ways (Textual 8.2: the first two lean
    on its internals, and tests check both; should they stop working, the footer falls
    back to Textual's own timing):

    * **No leak.** Textual's footer binds each key it builds to its own ``compact`` setting
      (``data_bind``) and never drops that watcher when it rebuilds the keys, so every
      bindings refresh left all the old key widgets alive (hundreds a minute at a busy
      table). After each rebuild the watchers of keys no longer on screen are dropped.
    * **Keys in the first frame.** Textual's footer composes empty and builds its keys
      only after the screen's first frame (``call_after_refresh``), so they show up a frame
      or two late. This one builds them once, when its screen has been composed and
      mounted (its ``on_mount`` may enable keys) but before that screen's first frame.
    * **No rebuild for nothing.** A bindings refresh rebuilds the keys only if what the
      footer would show (keys, labels, enabled or not) has changed.
    * **In the player's language.** The keys' descriptions are English (marked with ``N_``)
      and are translated when the keys are built; a language switch rebuilds them.
    * **No rebuild while covered.** The footer of a screen under another one (the start
      screen under the table) is left alone; when its screen is shown again, the bindings
      refresh Textual sends then brings it up to date.
    * **Keys styled once.** Each key is made with the footer's ``compact`` setting, where
      Textual's mounts it compact (its default) and then, bound to the footer's, not:
      two restyles of every key, each time the keys are built.
    """

    _shown: tuple | None = None  # what the keys on screen show (see _signature)
    _rebuilding: asyncio.Lock | None = None

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            screen = self.screen
            if not screen.is_mounted:
                # composed with its screen, whose on_mount may still change the keys: build
                # them right after it (before the screen's first frame), see _after_compose
                screen.call_next(self._after_compose)
                return
            self.set_reactive(Footer._bindings_ready, True)
        self._shown = self._signature()
        compact = self.compact
        for widget in super().compose():
            if isinstance(widget, FooterKey):  # the keys' words are English, marked with N_
                widget.description = _(widget.description)
                if widget.tooltip:
                    widget.tooltip = _(str(widget.tooltip))
                # born with the footer's compactness: a key otherwise mounts compact (its
                # default), restyling itself, then takes the footer's, restyling again
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    def _after_compose(self) -> None:
        # The screen runs its next-callbacks after each of its first two events, Compose
        # and Mount, before it takes its first message (ScreenResume, which lays it out and
        # paints it): this hop is after Compose, the next after Mount (on_mount has run).
        self.screen.call_next(self.settle)

    def _signature(self) -> tuple:
        """What :meth:`compose` would put on screen now, as a value to compare."""
        app = self.app
        shown = tuple(
            (key, binding.action, binding.description, app.get_key_display(binding),
             enabled, tooltip, binding.tooltip, binding.group)
            for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
            if binding.show)
        return (shown, self.show_command_palette and app.ENABLE_COMMAND_PALETTE,
                self.combine_groups, language())

    def _on_top(self) -> bool:
        """True if this footer's screen is the one shown."""
        try:
            return self.screen is self.app.screen
        except Exception:  # noqa: BLE001 - no screen (being taken down) or no app
            return False

    def bindings_changed(self, screen: Screen) -> None:
        if self._on_top():
            super().bindings_changed(screen)
        else:
            self._bindings_ready = True  # brought up to date when its screen is shown again

    async def settle(self) -> None:
        """Build the keys now, or bring them up to date."""
        self._bindings_ready = True
        with self._context():  # the keys bind to this footer (data_bind reads the context)
            await self.recompose()

    async def recompose(self) -> None:
        if self._rebuilding is None:
            self._rebuilding = asyncio.Lock()
        async with self._rebuilding:  # one rebuild at a time, each looking at the last one
            if not self.is_attached or not self._on_top() or self._signature() == self._shown:
                return
            await super().recompose()  # compose() notes what it shows
            for watchers in getattr(self, "__watchers", {}).values():
                watchers[:] = [(node, callback) for node, callback in watchers
                               if node.is_attached and not node._closing]

