"""The engine's small typed error hierarchy. Every message is meant for a human."""

from __future__ import annotations


class AlhambraError(Exception):
    """Base of every error the engine raises on purpose."""


class ConfigError(AlhambraError, ValueError):
    """A game configuration that cannot be played (player count, unknown module, ...)."""


class NotationError(AlhambraError, ValueError):
    """Text that is not a valid action (or card, or tile) in the project's notation."""


class IllegalAction(AlhambraError):
    """An action the rules do not allow in this state; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurn(IllegalAction):
    """The acting seat is not the one the game waits for."""


class WrongPhase(IllegalAction):
    """The action does not fit the decision the game waits for."""


class InvalidPayment(IllegalAction):
    """The offered cards cannot pay for the tile."""


class IllegalPlacement(IllegalAction):
    """A building rule would be broken; ``rule`` names it (see ``alhambra.city.RULE_MESSAGES``)."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(reason)
        self.rule = rule


class GameOver(IllegalAction):
    """The game has ended; no action is possible."""


class RecordError(AlhambraError):
    """A game record that cannot be replayed; ``step`` is the failing action's index (or None)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step
