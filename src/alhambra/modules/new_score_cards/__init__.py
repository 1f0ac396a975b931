"""New score cards (Big Box module ``new_score_cards``): see ``README.md``."""

from __future__ import annotations

from .module import MODULE, NewScoreCards, ScoreCard, ScoreCardsDrawn, ScoreCardsState, card, cards, points, score_cards

__all__ = ["MODULE", "NewScoreCards", "ScoreCard", "ScoreCardsDrawn", "ScoreCardsState", "card", "cards", "points", "score_cards"]
