"""An Input whose own keys act in the order they were typed (see :class:`TypedInput`)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class TypedInput(Input):
    """An :class:`Input` whose own keys (backspace, delete, the arrows …) act in the order
    they were typed.

    Textual (8.2) inserts a printable key as soon as the Input takes it, but runs the Input's
    key *bindings* only after the key has bubbled up to the app; keys that arrive in one
    burst (fast typing, a paste of keystrokes) then act out of order: End, Backspace ×3,
    ``456`` in one read became ``4``, ``45``, ``456`` and then three Backspaces, losing the
    digits. Here the Input's own bindings run when the Input takes the key, in turn."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if binding.priority:
                    continue  # (the app ran the priority bindings before sending it here)
                if await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)
