"""The pure rules engine: no textual, rich or asyncio in here."""
