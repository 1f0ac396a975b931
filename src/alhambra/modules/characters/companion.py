"""The characters' part in scoring a real table: the City Watch's wall bonus, the Wise Man's
half building and the Travelling Entertainer's 8 points."""

from __future__ import annotations

COMPANION = None
