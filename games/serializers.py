"""Request shapes for validation and the OpenAPI schema. The rules themselves are checked by
the engine (one place); these only check JSON types."""

from rest_framework import serializers

from games.engine.state import VARIANTS


class CredentialsSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{1,40}$", max_length=40)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class OptionsSerializer(serializers.Serializer):
    duel_coin = serializers.BooleanField(required=False)
    block_window_s = serializers.IntegerField(required=False, min_value=1)
    turn_deadline_s = serializers.IntegerField(required=False, min_value=1)
    bots = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=5),
                                 required=False, max_length=6)  # fmt: skip


class CreateGameSerializer(serializers.Serializer):
    seats = serializers.IntegerField(min_value=2, max_value=6)
    variant = serializers.ChoiceField(choices=VARIANTS, default="standard")
    options = serializers.JSONField(required=False, help_text="see OptionsSerializer")
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
