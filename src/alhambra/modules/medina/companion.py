"""Medina at a real table: each participant's medinas and the price of the dearest."""

from __future__ import annotations

from typing import Any, Final

from ...companion.hooks import CompanionHooks, Field, Line, Tally
from ...state import GameState
from .module import built, data, participants, penalties

_TILES: Final = len(data().tiles)
_TOP: Final = max(p for p, _ in data().tiles)


class MedinaCompanion(CompanionHooks):
    """Per player and the neutral player: medinas built and the dearest one's price."""

    seat_fields = (
        Field("medinas", "medinas built", "count", 0, _TILES, neutral=True),
        Field("dearest", "price of the dearest medina", "count", 0, _TOP, neutral=True, help="0 without a medina"),
    )

    def check(self, tally: Tally) -> list[str]:
        """A count needs a price, a price needs a count, and no two real medinas cost the same."""
        out: list[str] = []
        prices = {p for p, _ in data().tiles}
        for i, v in enumerate(tally.seats):
            if bool(v["medinas"]) != bool(v["dearest"]):
                out.append(f"participant {i + 1}: give the dearest medina's price with the count (0 and 0 without any)")
            elif v["dearest"] and v["dearest"] not in prices:
                out.append(f"participant {i + 1}: no medina costs {v['dearest']} (prices: {', '.join(map(str, sorted(prices)))})")
        return out

    def round_points(self, tally: Tally) -> list[Line] | None:
        """The penalties of the fewest medinas (as ``penalties``), the neutral player's too."""
        counts = [v["medinas"] for v in tally.seats]
        dearest = [v["dearest"] for v in tally.seats]
        got = penalties(counts, dearest, tally.round_no)
        return [
            Line(p, f"{c} medina{'s' if c != 1 else ''}" + (f", dearest {d}" if c else ""))
            for p, c, d in zip(got, counts, dearest, strict=True)
        ]

    def browser_data(self) -> dict[str, Any]:
        """Penalties per round and place, and the extra loss without a medina per round."""
        d = data()
        return {"penalties": [list(r) for r in d.penalties], "without": list(d.without)}

    def export(self, state: GameState, round_no: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Medinas and the dearest price of every participant."""
        rows = [built(state, s) for s in participants(state)]
        return {}, [{"medinas": len(r), "dearest": r[-1] if r else 0} for r in rows]


COMPANION: Final = MedinaCompanion()
