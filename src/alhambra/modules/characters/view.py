"""What every seat sees of the characters (all of it is public), and the slice read back from it."""

from __future__ import annotations

from typing import Any

from ...engine.services import build_components
from ...state import GameConfig, GameState
from .components import BY_KEY, CITY_WATCH, MODULE_ID, NAMES, card_ids, data
from .scoring import wall_points
from .state import CharactersState, chars


def view(state: GameState) -> dict[str, Any]:
    """Public: who owns which character, those out of the game, the cards waiting for an
    auction, the surplus pile's size, the abilities used this turn and the Wise Man's kinds."""
    sl = chars(state)
    return {
        "cards": len(sl.cards),
        "owned": [list(o) for o in sl.owned],
        "queue": list(sl.queue),
        "out": list(sl.out),
        "surplus": sl.surplus,
        "known": list(sl.known),
        "used": list(sl.used),
        "wise": list(sl.wise),
        "scored_wise": list(sl.scored_wise),
        "unseen": sl.unseen(),
        "names": {k: BY_KEY[k].name for k in NAMES},
        "usage": {k: BY_KEY[k].usage for k in NAMES},
        "in_piles": len(card_ids(state)) - len(sl.cards) if MODULE_ID in state.mods else 0,
        "city_watch": [wall_points(state, s) // data().city_watch_per if CITY_WATCH in o else 0 for s, o in enumerate(sl.owned)],
    }


def slice_from_view(module_view: dict[str, Any], config: GameConfig) -> CharactersState:
    """The whole slice is public; the held card ids are any of the character cards."""
    comp = build_components(config)
    ids = [i for i, c in enumerate(comp.cards) if c.code == data().code]
    k = int(module_view["cards"])
    return CharactersState(
        tuple(ids[len(ids) - k :]),
        tuple(tuple(o) for o in module_view["owned"]),
        tuple(module_view["queue"]),
        tuple(module_view["out"]),
        int(module_view["surplus"]),
        tuple(module_view["known"]),
        tuple(module_view["used"]),
        tuple(module_view["wise"]),
        tuple(module_view["scored_wise"]),
    )
