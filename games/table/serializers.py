"""Request and answer shapes for the OpenAPI schema (API.md). Commands, games and joins are
checked by the services and the engine (one
place), so these shapes document them without a second, drifting copy of the rules."""

from rest_framework import serializers

from games.engine.setup import MAX_DEADLINE_S, MAX_SPECTATOR_DELAY, MAX_TIMEOUTS_TO_BOT
from games.engine.state import VARIANTS


class OptionsSerializer(serializers.Serializer):
    duel_coin = serializers.BooleanField(required=False)
    block_window_s = serializers.IntegerField(required=False, min_value=1, max_value=MAX_DEADLINE_S)
    turn_deadline_s = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_DEADLINE_S
    )
    bots = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=5),
                                 required=False, max_length=6)  # fmt: skip
    spectator_delay = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_SPECTATOR_DELAY,
        help_text="events spectators stay behind the present; default 10, 0 = live",
    )  # fmt: skip
    timeouts_to_bot = serializers.IntegerField(required=False, min_value=0,
                                               max_value=MAX_TIMEOUTS_TO_BOT)  # fmt: skip


class CreateGameSerializer(serializers.Serializer):
    seats = serializers.IntegerField(min_value=2, max_value=6)
    variant = serializers.ChoiceField(choices=VARIANTS, default="standard")
    options = OptionsSerializer(required=False)
    rig = serializers.JSONField(required=False, help_text="only with SEJMI_ALLOW_RIGGED=1")


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=5)


class CommandSerializer(serializers.Serializer):
    """`expected_seq` plus one command body (play, block, pass, choose_neighbor, bet, handoff)."""

    expected_seq = serializers.IntegerField(min_value=0)
    type = serializers.ChoiceField(
        choices=["play", "block", "pass", "choose_neighbor", "bet", "handoff"]
    )
    card = serializers.CharField(required=False, allow_null=True, max_length=10)
    effect = serializers.IntegerField(required=False, min_value=0, max_value=1)
    scope = serializers.ChoiceField(choices=["one", "all"], required=False)
    target = serializers.IntegerField(required=False, allow_null=True)
    neighbor = serializers.IntegerField(required=False)
    kind = serializers.ChoiceField(choices=["parity", "size", "coin"], required=False)
    value = serializers.ChoiceField(
        choices=["even", "odd", "small", "big", "heads", "tails"], required=False
    )
    to = serializers.IntegerField(required=False, allow_null=True)


# Answers (API.md). `pending` and `legal` items are free-form objects, as documented there.


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField()
    lives = serializers.IntegerField()
    hand_count = serializers.IntegerField()
    eliminated = serializers.BooleanField()
    team = serializers.IntegerField(allow_null=True)
    away = serializers.ChoiceField(choices=["vacation", "bot"], allow_null=True)
    left = serializers.BooleanField()
    away_until = serializers.DateTimeField(allow_null=True)


class SignedHeadSerializer(serializers.Serializer):
    """The service's Ed25519 signature of a head: verify `signature` (hex) over the bytes
    `sejmi-head:v1:<seq>:<hash>` with the key of GET /api/signing-key/ (docs/INTEGRITY.md)."""

    seq = serializers.IntegerField()
    hash = serializers.CharField(help_text="the chain's hash at seq (SHA-256, hex)")
    key_id = serializers.CharField(help_text="the signing key's id (GET /api/signing-key/)")
    signature = serializers.CharField()


class ViewSerializer(serializers.Serializer):
    """The game as the caller may see it (R23)."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["lobby", "active", "ended"])
    variant = serializers.ChoiceField(choices=VARIANTS)
    phase = serializers.CharField(allow_null=True)
    kostic = serializers.IntegerField(allow_null=True)
    awaiting = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    you = serializers.IntegerField(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField())
    partner_hand = serializers.ListField(child=serializers.CharField(), allow_null=True)
    players = PlayerSerializer(many=True)
    draw_count = serializers.IntegerField()
    discard = serializers.ListField(child=serializers.CharField())
    countdown = serializers.IntegerField(allow_null=True)
    pending = serializers.JSONField(allow_null=True)
    legal = serializers.ListField(child=serializers.JSONField())
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    seed_commitment = serializers.CharField()
    forked_from = serializers.JSONField(
        allow_null=True, help_text='a fork\'s source: {"game", "at"} (issue 30); else null'
    )
    tournament = serializers.DictField(
        allow_null=True, help_text='{"id", "name", "round"} of a tournament\'s game, else null'
    )
    delayed = serializers.BooleanField(
        help_text="a spectator's view of a delayed game: the game `spectator_delay` events "
        "ago (its seq is that past seq; legal [] and deadline null)"
    )
    signed_head = SignedHeadSerializer(
        allow_null=True,
        help_text="the latest head the service signed at or before `seq` (issue 32): a "
        "player's proof, kept outside the service's database; null before the first",
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    seats = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    status = serializers.ChoiceField(choices=["lobby", "active", "ended"])


class CommandAnswerSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the new last seq")
    view = ViewSerializer()


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    at = serializers.DateTimeField()
    # A field named `data`: DRF's metaclass takes declared fields off the class, so the
    # serializer's own `data` property stays (the stubs see only the class attribute).
    data = serializers.JSONField(help_text="redacted for the caller (R23)")  # type: ignore[assignment]


class EventsSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
