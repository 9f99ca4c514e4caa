"""The app's models, as Django and the migrations look them up (app label `games`, the same
tables): each feature keeps its own in its package, and this module only re-exports them.
Code imports a model from its feature (`games.chat.models`), never from here."""

from games.accounts.models import AccountName
from games.chat.models import ChatHiding, ChatMessage
from games.core.models import (
    FollowerCursor,
    Game,
    GameEvent,
    GameProjection,
    GameSnapshot,
    HeadSignature,
    IdempotentAnswer,
    SealedPass,
)
from games.forks.models import Fork
from games.notes.models import GameNote, NoteHiding
from games.notifications.models import (
    DeadlineReminder,
    Notification,
    NotificationPrefs,
    OutboxMail,
    Presence,
)
from games.odds.models import GameOdds
from games.ratings.models import PlayerRating, RatedGame, RatingChange
from games.table.models import (
    GameContext,
    PlayerSeat,
    PlayerStats,
    StandingOrder,
    VacationDeclaration,
    VacationEnd,
)
from games.tournaments.models import (
    Tournament,
    TournamentEvent,
    TournamentGame,
    TournamentProjection,
)
from games.webpush.models import PushDelivery, PushSubscription

__all__ = [
    "AccountName",
    "ChatHiding",
    "ChatMessage",
    "DeadlineReminder",
    "FollowerCursor",
    "Fork",
    "Game",
    "GameContext",
    "GameEvent",
    "GameNote",
    "GameOdds",
    "GameProjection",
    "GameSnapshot",
    "HeadSignature",
    "IdempotentAnswer",
    "NoteHiding",
    "Notification",
    "Tournament",
    "TournamentEvent",
    "TournamentGame",
    "TournamentProjection",
    "NotificationPrefs",
    "OutboxMail",
    "PlayerRating",
    "PlayerSeat",
    "PlayerStats",
    "Presence",
    "PushDelivery",
    "PushSubscription",
    "RatedGame",
    "RatingChange",
    "SealedPass",
    "StandingOrder",
    "VacationDeclaration",
    "VacationEnd",
]
