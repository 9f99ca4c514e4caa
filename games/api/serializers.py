"""Shapes every feature's routes share: the one error body (API.md "Errors") and text fields
that refuse numbers and booleans instead of turning them into text."""

from rest_framework import serializers


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
    code = serializers.CharField(help_text="not_your_turn, illegal_move, stale_seq, ...")
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()
