"""The key footer, without the growth of Textual's own on every bindings refresh."""

from __future__ import annotations

from textual.widgets import Footer


class TidyFooter(Footer):
    """Textual's :class:`Footer` that forgets the keys it has taken down.

    Textual 8.2's footer binds each key it builds to its own ``compact`` setting
    (``data_bind``) and never drops that watcher when it rebuilds the keys, so every
    bindings refresh left all the old key widgets alive (hundreds a minute at a busy
    table). After each rebuild the watchers of keys no longer on screen are dropped.
    """

    async def recompose(self) -> None:
        await super().recompose()
        for watchers in getattr(self, "__watchers", {}).values():
            watchers[:] = [(node, callback) for node, callback in watchers
                           if node.is_attached and not node._closing]
