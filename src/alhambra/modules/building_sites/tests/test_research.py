"""The research APIs with Building Sites: every legal action <-> exactly one token sequence (the
items ``site1``-``site4`` / ``fin1``-``fin8`` and ``site keep CURRENCY`` by the declared grammar),
and the observation encoder reads every view."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research tools need numpy (pip install 'alhambra[rl]')")

from alhambra import GameConfig, legal_actions, new_game, view
from alhambra.actions import grammar_of
from alhambra.components import CURRENCIES
from alhambra.engine import apply_unchecked
from alhambra.research.encoding import codec_for
from alhambra.research.observation import ObservationEncoder

from .helpers import ID


@pytest.mark.parametrize("players", [2, 4])
def test_every_site_action_encodes_and_decodes(players: int) -> None:
    config = GameConfig(players=players, modules=(ID, "vizier"))
    codec = codec_for(config)
    encoder = ObservationEncoder.for_config(config, codec)
    state, _ = new_game(config, 40 + players)
    rng = random.Random(players)
    seen: set[str] = set()
    while not state.is_over:
        actions = legal_actions(state)
        sequences = [codec.encode(a) for a in actions]
        assert len(set(sequences)) == len(actions)
        for a, seq in zip(actions, sequences, strict=True):
            assert codec.decode(seq) == a
            text = str(a)
            if text.startswith("buy site"):
                seen.add("setup")
            elif text.startswith("buy fin"):
                seen.add("complete")
            elif text.startswith("site keep"):
                seen.add("keep")
        seat = state.to_act
        assert seat is not None
        encoder.encode(view(state, seat, with_legal_actions=False))
        mine = [a for a in actions if "site" in str(a) or " fin" in str(a)]
        apply_unchecked(state, rng.choice(mine if mine and rng.random() < 0.5 else actions))
    assert seen == {"setup", "complete", "keep"}
    assert grammar_of("site keep") == ("currency",)


def test_openspiel_information_state_keeps_the_kept_site_tile_secret() -> None:
    """The site tiles a player draws and keeps are secret: another seat's information-state
    string shows neither the draws' outcomes, nor the tokens of the choice, nor the currency,
    only that draws happened and the redacted events."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra")
    import alhambra.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(f"python_alhambra(players=2,modules={ID})")
    rng = random.Random(3)
    state = game.new_initial_state()
    kept: list[tuple[int, str]] = []  # (seat, currency letter) of each site tile kept by choice
    while not state.is_terminal() and len(kept) < 2:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        names = [state.action_to_string(seat, a) for a in legal]
        # buy building sites when offered, so that a choice comes up soon
        pick = next((a for a, n in zip(legal, names, strict=True) if n == "site keep" or n.startswith("item site")), None)
        if pick is None and "buy" in names and rng.random() < 0.5:
            pick = legal[names.index("buy")]
        before = state.prefix
        state.apply_action(rng.choice(legal) if pick is None else pick)
        if before and state.action_to_string(seat, before[-1]) == "site keep":
            kept.append((seat, state.information_state_string(seat).splitlines()[-1]))
    assert kept, "no site tile was kept by choice in this game"
    for seat, _ in kept:
        mine = state.information_state_string(seat)
        theirs = state.information_state_string(1 - seat)
        assert f"p{seat} site keep" in mine
        assert f"p{seat} " not in theirs  # no token of the other seat at all
        own = [ln for ln in mine.splitlines() if f"SiteTileKept(seat={seat}," in ln and "forced=False" in ln]
        other = [ln for ln in theirs.splitlines() if f"SiteTileKept(seat={seat}," in ln and "forced=False" in ln]
        assert own and len(own) == len(other)
        assert all("kept=''" not in ln for ln in own)
        assert all("kept=''" in ln and "returned=''" in ln for ln in other)
        # the site tiles are drawn in secret: a chance node whose outcome only the drawer sees
        drawn_by_me = [ln for ln in mine.splitlines() if ln.startswith(f"chance {ID}:")]
        assert drawn_by_me and all(ln.split(":")[1] in CURRENCIES for ln in drawn_by_me)
        assert theirs.splitlines().count(f"chance (secret to p{seat})") == len(drawn_by_me)
        drawn_by_them = [ln for ln in theirs.splitlines() if ln.startswith(f"chance {ID}:")]
        assert mine.splitlines().count(f"chance (secret to p{1 - seat})") == len(drawn_by_them)
