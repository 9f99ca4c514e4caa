"""`manage.py sign_heads`: sign the heads of games recorded before the service signed them
(games.core.signing): each ended game's end, each checkpoint and each running game's head not
signed yet (a head older than issue 32 carries no signature in its row: the service builds on
no head it did not sign; the migration 0021 signs those running heads by itself,
games.core.legacy_heads). Run once when
signing is first deployed, as the service, after checking the records it vouches for
(`manage.py verify_game`); a game whose chain does not hold is left unsigned and named."""

from django.core.management.base import BaseCommand

from games.core import event_store
from games.core.models import Game, HeadSignature
from games.engine.events import GAME_ENDED


class Command(BaseCommand):
    help = "Sign the heads of games recorded before heads were signed."

    def handle(self, *args, **opts):
        signed = 0
        for game_id in Game.objects.order_by("pk").values_list("pk", flat=True):
            rows = event_store.load(game_id)
            if not rows:
                continue
            if not event_store.verify_chain(rows).ok:
                self.stderr.write(f"game {game_id}: the chain does not hold; not signed")
                continue
            have = set(HeadSignature.objects.filter(game_id=game_id).values_list("seq", flat=True))
            heads = [r for r in rows if r.seq not in have and (
                r.seq % event_store.CHECKPOINT_EVERY == 0 or r.type == GAME_ENDED
                or (r is rows[-1] and not r.head_signature))]  # fmt: skip
            event_store.sign(game_id, heads)
            signed += len(heads)
        self.stdout.write(f"{signed} heads signed")
