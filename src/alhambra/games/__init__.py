"""Game data (``game.json``, ``README.md``)."""
