"""Reads of the ratings (games.ratings.services): a player's profile and the leaderboard."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.core.codec import iso
from games.core.errors import not_found
from games.engine.state import VARIANTS
from games.ratings.models import PlayerRating, RatingChange
from games.ratings.services import ALL, initial, ordinal

LEADERBOARD_SIZE = 100


def rating_json(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma)}


def player_profile(username: str) -> dict[str, Any]:
    """API.md's player: the overall rating, games and wins, the same per variant, and the
    overall rating after each rated game, oldest first. A player with no rated game has the
    initial rating. ApiError(not_found) for an unknown username."""
    users = get_user_model()
    storable = "\x00" not in username and len(username) <= (
        users._meta.get_field("username").max_length or 0
    )
    user = users.objects.filter(username=username).first() if storable else None
    if user is None:
        raise not_found("player")
    rows = {r.scope: r for r in PlayerRating.objects.filter(user=user)}

    def scope(name: str) -> dict[str, Any]:
        row = rows.get(name)
        mu, sigma = (row.mu, row.sigma) if row else initial()
        return {"rating": rating_json(mu, sigma), "games": row.games if row else 0,
                "wins": row.wins if row else 0}  # fmt: skip

    changes = (RatingChange.objects.filter(user=user).select_related("rated")
               .order_by("rated__ended_at", "rated__game_id"))  # fmt: skip
    history = [
        {"game": c.rated.game_id, "ordinal": ordinal(c.mu, c.sigma),
         "at": iso(c.rated.ended_at)}
        for c in changes
    ]  # fmt: skip
    return {"username": user.username, **scope(ALL),
            "by_variant": {variant: scope(variant) for variant in VARIANTS},
            "history": history}  # fmt: skip


def leaderboard(variant: str | None = None) -> list[dict[str, Any]]:
    """The best LEADERBOARD_SIZE rated players, best ordinal first (ties by name): by the
    overall rating, or by the rating in `variant` (its games only) among those who played it."""
    rows = (PlayerRating.objects.filter(scope=variant or ALL).select_related("user")
            .order_by("-ordinal", "user__username")[:LEADERBOARD_SIZE])  # fmt: skip
    return [{"username": r.user.username, "ordinal": r.ordinal, "games": r.games} for r in rows]
