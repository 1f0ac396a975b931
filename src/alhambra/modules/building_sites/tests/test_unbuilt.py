"""Building sites answer ``Module.unbuilt_tiles``: treasure chests and street traders' citizens
never go onto a site (rulebook: "residents and treasure chests can be placed on completed
buildings only, not on building sites")."""

from __future__ import annotations

import random

from alhambra.engine import apply_unchecked, legal_actions, new_game, unbuilt_tiles
from alhambra.state import GameConfig

from ..module import site_tile_ids


def test_sites_are_unbuilt_and_never_hold_a_chest() -> None:
    seen_sites = 0
    for seed in range(6):
        state, _ = new_game(GameConfig(players=3, modules=("building_sites", "treasure_chamber")), seed)
        rng = random.Random(seed)
        while not state.is_over:
            sites = site_tile_ids(state)
            for seat, p in enumerate(state.players):
                unbuilt = unbuilt_tiles(state, seat)
                assert unbuilt == {t for t in p.city.values() if t in sites}
                seen_sites += len(unbuilt)
                homes = state.mods["treasure_chamber"].homes[seat]
                assert not {state.components.tile_ids[code] for code in homes} & unbuilt, "a chest lies on a building site"
            apply_unchecked(state, rng.choice(legal_actions(state)))
    assert seen_sites > 0  # random players do set up sites in their Alhambras
