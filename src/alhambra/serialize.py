"""JSON form of a full game state (hidden facts included: for storage, never for players)."""

from __future__ import annotations

from typing import Any

from . import city as geo
from .engine import build_components
from .errors import AlhambraError
from .hooks import load_module
from .state import GameConfig, GameState, Pending, PlayerState

FORMAT = "alhambra-state/1"


def state_to_json(state: GameState) -> dict[str, Any]:
    """Everything needed to rebuild ``state`` exactly, as JSON-ready data."""
    code = state.tile_code

    def tiles(ids: list[int]) -> list[str]:
        return [code(t) for t in ids]

    out: dict[str, Any] = {
        "format": FORMAT,
        "config": state.config.to_dict(),
        "seed": state.seed,
        "deck": state.deck[:],
        "display": state.display[:],
        "discard": state.discard[:],
        "removed": state.removed[:],
        "market": [code(t) if t >= 0 else None for t in state.market],
        "market_currency": list(state.market_currency),
        "bag": tiles(state.bag),
        "players": [
            {
                "hand": p.hand[:],
                "alhambra": [[*geo.xy(q), code(t)] for q, t in sorted(p.city.items())],
                "reserve": tiles(p.reserve),
            }
            for p in state.players
        ],
        "scores": state.scores[:],
        "neutral": None if state.neutral is None else tiles(state.neutral),
        "neutral_score": state.neutral_score,
        "current": state.current,
        "turn": state.turn,
        "stage": state.stage,
        "pending": [p.to_dict() for p in state.pending],
        "scoring_queue": state.scoring_queue[:],
        "rounds_scored": state.rounds_scored,
        "reshuffles": state.reshuffles,
        "outcome": state.outcome,
        "market_exhausted": state.market_exhausted,
        "score_history": [list(s) for s in state.score_history],
        "mods": {k: load_module(k).slice_to_json(v) for k, v in sorted(state.mods.items())},
        "decided": None if state.decided is None else [list(state.decided[0]), list(state.decided[1])],
        "piles": None if state.piles is None else [[left, [[k, v] for k, v in classes]] for left, classes in state.piles],
        "flow": state.flow,
        "draws": state.draws,
    }
    if state.components.twins:  # two-sided tiles (Granada) only, so other documents stay as they were
        out["market_face"] = state.market_face
        out["turned"] = tiles(list(state.turned))
    changed = state.changed_walls()
    if changed:  # a module changed some tiles' walls (only then, so other documents stay as they were)
        out["walls"] = changed
    if state.module_decided:  # explicit-chance mode with a module's draw decided ahead
        out["module_decided"] = list(state.module_decided)
    return out


def state_from_json(data: dict[str, Any]) -> GameState:
    """Rebuild a state from :func:`state_to_json` output; raise :class:`AlhambraError` on junk."""
    try:
        if data.get("format") != FORMAT:
            raise AlhambraError(f"not an {FORMAT} document")
        config = GameConfig.from_dict(data["config"])
        comp = build_components(config)
        ids = comp.tile_ids
        n = config.players

        def tile(c: str) -> int:
            if c == "F":
                raise AlhambraError("a fountain cannot be stored by code alone")
            return ids[c]

        players: list[PlayerState] = []
        for s, p in enumerate(data["players"]):
            city = {}
            for x, y, c in p["alhambra"]:
                city[geo.pos(int(x), int(y))] = comp.fountains[s] if c == "F" else tile(c)
            players.append(PlayerState([int(c) for c in p["hand"]], city, [tile(c) for c in p["reserve"]]))
        if len(players) != n:
            raise AlhambraError("player count does not match the configuration")
        ncards = len(comp.cards)
        for lst in [data["deck"], data["discard"], data["removed"], *(p["hand"] for p in data["players"])]:
            if any(not isinstance(c, int) or not 0 <= c < ncards for c in lst):
                raise AlhambraError("a card id is out of range")
        state = GameState(
            config=config,
            components=comp,
            seed=int(data["seed"]),
            deck=list(data["deck"]),
            display=[int(c) for c in data["display"]],
            discard=list(data["discard"]),
            market=[-1 if c is None else tile(c) for c in data["market"]],
            bag=[tile(c) for c in data["bag"]],
            players=players,
            scores=[int(v) for v in data["scores"]],
            neutral=None if data["neutral"] is None else [tile(c) for c in data["neutral"]],
            neutral_score=int(data["neutral_score"]),
            removed=list(data["removed"]),
            current=int(data["current"]),
            turn=int(data["turn"]),
            stage=str(data["stage"]),
            pending=[Pending.from_dict(p) for p in data["pending"]],
            scoring_queue=[int(v) for v in data["scoring_queue"]],
            rounds_scored=int(data["rounds_scored"]),
            reshuffles=int(data["reshuffles"]),
            outcome=data["outcome"],
            market_exhausted=bool(data["market_exhausted"]),
            mods={k: load_module(k).slice_from_json(v) for k, v in data["mods"].items()},
            market_currency=tuple(int(v) for v in data["market_currency"]),
            score_history=[tuple(int(v) for v in s) for s in data["score_history"]],
            decided=None if data.get("decided") is None else (tuple(map(str, data["decided"][0])), tuple(map(str, data["decided"][1]))),
            piles=None
            if data.get("piles") is None
            else tuple((int(left), tuple((str(k), int(v)) for k, v in classes)) for left, classes in data["piles"]),
            flow=int(data.get("flow", 0)),
            draws=int(data.get("draws", 0)),
            market_face=int(data.get("market_face", 0)),
            turned=tuple(tile(c) for c in data.get("turned", ())),
            module_decided=tuple(map(str, data.get("module_decided", ()))),
        )
        if data.get("walls"):
            state.set_changed_walls(dict(data["walls"]))
        return state
    except AlhambraError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise AlhambraError(f"corrupt state document: {e!r}") from None
