"""The app's models, as Django and the migrations look them up (app label `games`, the same
tables): each feature keeps its own in its package, and this module only re-exports them.
Code imports a model from its feature (`games.chat.models`), never from here."""

from games.accounts.models import AccountName
from games.chat.models import ChatHiding, ChatMessage
from games.core.models import (
    Game,
    GameEvent,
    GameProjection,
    GameSnapshot,
    HeadSignature,
    IdempotentAnswer,
    SealedPass,
)
from games.notifications.models import (
    DeadlineReminder,
    Notification,
    NotificationCursor,
    NotificationPrefs,
    OutboxMail,
    Presence,
)
from games.ratings.models import PlayerRating, RatedGame, RatingChange
from games.table.models import (
    PlayerSeat,
    PlayerStats,
    StandingOrder,
    VacationDeclaration,
    VacationEnd,
)

__all__ = [
    "AccountName", "ChatHiding", "ChatMessage", "DeadlineReminder", "Game", "GameEvent",
    "GameProjection",
    "GameSnapshot", "HeadSignature", "IdempotentAnswer", "Notification", "NotificationCursor",
    "NotificationPrefs", "OutboxMail", "PlayerRating", "PlayerSeat", "PlayerStats", "Presence",
    "RatedGame", "RatingChange", "SealedPass", "StandingOrder", "VacationDeclaration",
    "VacationEnd",
]
