"""Shapes every feature's routes share: the one error body (API.md "Errors") and text fields
that refuse numbers and booleans instead of turning them into text."""

from rest_framework import serializers

from games.engine.errors import Code


class TextOnly:
    """A text field that refuses numbers and booleans instead of turning them into text."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class TextField(TextOnly, serializers.CharField):
    pass


class TextRegexField(TextOnly, serializers.RegexField):
    pass


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=[code.value for code in Code],
        help_text="every code the service answers with, beyond API.md's list too: `game_tampered` "
        "(409, a game stopped for staff: docs/INTEGRITY.md), `too_many` (429, a per-player cap, "
        "with Retry-After); their statuses: docs/CHOICES.md",
    )
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()
