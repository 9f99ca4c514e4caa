"""GameVisit: what a user has been shown of a game. The table page reads it when it opens
("since your last visit") and the page itself reports, while its tab is visible, the last seq
it showed (table_pages.seen): the moves watched live are not news on the next visit."""

from __future__ import annotations

from django.db import transaction

from frontend.models import GameVisit


def last_visit(*, user, game_id: int) -> int | None:
    """The last seq `user`'s page showed of `game_id`; None if it never did (or anonymous)."""
    if user is None or not user.is_authenticated:
        return None
    return (GameVisit.objects.filter(user=user, game_id=game_id)
            .values_list("last_seq", flat=True).first())  # fmt: skip


def record_visit(*, user, game_id: int, seq: int) -> int | None:
    """Remember that `user` is shown `game_id` up to `seq`; return the seq he had seen
    before (None on a first visit or for an anonymous user). Never moves backwards."""
    if user is None or not user.is_authenticated:
        return None
    with transaction.atomic():
        visit, created = GameVisit.objects.select_for_update().get_or_create(
            user=user, game_id=game_id, defaults={"last_seq": seq}
        )
        if created:
            return None
        previous = visit.last_seq
        if seq > previous:
            visit.last_seq = seq
            visit.save(update_fields=["last_seq", "seen_at"])
        return previous
