"""What the bots did with the characters in a tournament file: per bot, characters won per game,
the mean winning bid, bids and passes per game, and how often each ability was used.

``python benchmarks/characters_use.py benchmarks/tournaments/modules/characters_greedy_random_2p.json``
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict

from alhambra import GameRecord, replay
from alhambra.modules.characters.events import BidMade, BidPassed, CharacterUsed, CharacterWon


def main(path: str) -> None:
    data = json.load(open(path, encoding="utf-8"))  # noqa: SIM115
    games: Counter[str] = Counter()
    won: Counter[str] = Counter()
    paid: defaultdict[str, list[int]] = defaultdict(list)
    bids: Counter[str] = Counter()
    passes: Counter[str] = Counter()
    used: defaultdict[str, Counter[str]] = defaultdict(Counter)
    fallbacks = 0
    for g in data["game_results"]:
        fallbacks += g.get("fallbacks", 0)
        bot_of = {seat: data["bots"][i] for i, seat in enumerate(g["seats"])}
        for b in bot_of.values():
            games[b] += 1
        _, events = replay(GameRecord.from_json(g["record"]))
        for e in events:
            if isinstance(e, CharacterWon):
                won[bot_of[e.seat]] += 1
                paid[bot_of[e.seat]].append(e.bid)
            elif isinstance(e, BidMade):
                bids[bot_of[e.seat]] += 1
            elif isinstance(e, BidPassed):
                passes[bot_of[e.seat]] += 1
            elif isinstance(e, CharacterUsed):
                used[bot_of[e.seat]][e.character] += 1
    print(f"fallbacks: {fallbacks}")
    print("| bot | games | characters won / game | mean winning bid | bids / game | passes / game | abilities used / game |")
    print("|---|---|---|---|---|---|---|")
    for b in sorted(games):
        n = games[b]
        mean_bid = sum(paid[b]) / len(paid[b]) if paid[b] else 0.0
        top = ", ".join(f"{k} {v / n:.1f}" for k, v in used[b].most_common(4))
        print(f"| {b} | {n} | {won[b] / n:.2f} | {mean_bid:.1f} | {bids[b] / n:.1f} | {passes[b] / n:.1f} | {top} |")


if __name__ == "__main__":
    main(sys.argv[1])
