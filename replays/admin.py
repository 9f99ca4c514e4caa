"""The staff's dispute queue: open disputes first, oldest first; each with the game's read-only
event log, verification report and transcript, append-only notes, and a decision.

Game events are shown, never edited (GameEvent is not registered here). Notes can be added but
not changed or deleted (a PostgreSQL trigger backs this up). A decision, once made, is final.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Case, Value, When
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from replays import disputes
from replays.models import Dispute, DisputeNote

log = logging.getLogger(__name__)

OPEN_FIRST = Case(When(status=Dispute.Status.OPEN, then=Value(0)), default=Value(1)).asc()
DECISION_FIELDS = ["status", "resolution"]


class DisputeForm(forms.ModelForm):
    """Status and resolution move together: a resolution closes, a closing needs a resolution."""

    class Meta:
        model = Dispute
        fields = DECISION_FIELDS

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "status" not in self.fields:  # already decided: both fields are read-only
            return data
        status, resolution = data.get("status"), (data.get("resolution") or "").strip()
        if status == Dispute.Status.OPEN and resolution:
            self.add_error("status", "a resolution closes the dispute: resolve or reject it "
                                     "(add a note for remarks while it stays open)")  # fmt: skip
        if status in disputes.CLOSED and not resolution:
            self.add_error("resolution", "say why: closing a dispute needs a resolution")
        pk = self.instance.pk
        if status in disputes.CLOSED and not Dispute.objects.filter(pk=pk, status="open").exists():
            raise forms.ValidationError("another admin has already decided this dispute")
        return data


class DisputeNoteInline(admin.TabularInline):
    """Existing notes are read-only; staff may only add new ones."""

    model = DisputeNote
    fields = ["text", "author", "created_at"]
    readonly_fields = ["author", "created_at"]
    extra = 1
    can_delete = False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _evidence(title: str, build: Callable[[Dispute], SafeString]) -> Callable[[Any, Dispute], Any]:
    """A read-only admin section. A failure is shown in place rather than breaking the page:
    a disputed game's record may be exactly what makes the report or transcript fail."""

    def section(self, obj: Dispute) -> SafeString:
        try:
            return build(obj)
        except Exception as err:  # noqa: BLE001 — shown to staff and logged
            log.exception("dispute %s: %s failed", obj.pk, title)
            return format_html("<strong>{} could not be computed:</strong> {}", title, err)

    section.short_description = title  # type: ignore[attr-defined]
    return section


def _json(value: Any) -> str:
    if isinstance(value, str | int | float | bool) or value is None:
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def event_log_html(obj: Dispute) -> SafeString:
    rows = format_html_join(
        "", "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code>"
            "</td></tr>",  # fmt: skip
        ((e["seq"], e["type"], e["at"], _json(e["data"]), e["hash"])
         for e in disputes.game_event_rows(obj.game_id)),
    )  # fmt: skip
    head = "<tr><th>seq</th><th>type</th><th>at</th><th>data</th><th>hash</th></tr>"
    return format_html('<table class="event-log"><thead>{}</thead><tbody>{}</tbody></table>',
                       SafeString(head), rows)  # fmt: skip


def report_html(obj: Dispute) -> SafeString:
    report = disputes.game_audit(obj.game_id)
    rows = format_html_join("", "<tr><th>{}</th><td><code>{}</code></td></tr>",
                            ((key, _json(value)) for key, value in report.items()))  # fmt: skip
    return format_html('<table class="verification-report">{}</table>', rows)


def transcript_html(obj: Dispute) -> SafeString:
    lines = disputes.game_transcript(obj.game_id, lang="en")
    return format_html('<pre class="transcript">{}</pre>', "\n".join(lines))


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    form = DisputeForm
    inlines = [DisputeNoteInline]
    list_display = ["id", "game", "status", "opened_by", "opened_at"]
    list_display_links = ["id", "game"]
    list_filter = ["status"]
    list_select_related = ["game", "opened_by"]
    search_fields = ["=game__id", "opened_by__username", "reason"]
    ordering = [OPEN_FIRST, "opened_at", "id"]
    fieldsets = [
        (None, {"fields": ["game", "opened_by", "opened_at", "reason"]}),
        ("Decision", {"fields": [*DECISION_FIELDS, "resolved_by", "resolved_at"]}),
        ("Verification report", {"fields": ["verification_report"]}),
        ("Event log", {"fields": ["event_log"]}),
        ("Transcript", {"fields": ["game_transcript"]}),
    ]
    base_readonly = ["game", "opened_by", "opened_at", "reason", "resolved_by", "resolved_at",
                     "verification_report", "event_log", "game_transcript"]  # fmt: skip

    verification_report = _evidence("Verification report", report_html)
    event_log = _evidence("Event log", event_log_html)
    game_transcript = _evidence("Transcript", transcript_html)

    def get_readonly_fields(self, request, obj=None) -> list[str]:
        # resolved_at, not status: after an invalid POST, `obj.status` holds the form's value
        decided = obj is not None and obj.resolved_at is not None
        return self.base_readonly + (DECISION_FIELDS if decided else [])

    def has_add_permission(self, request) -> bool:
        return False  # players open disputes through the API

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a dispute is a record, like the notes on it

    def save_model(self, request, obj: Dispute, form, change: bool) -> None:
        """Only a decision is saved here (notes go through save_formset)."""
        if obj.status not in disputes.CLOSED or "status" not in form.changed_data:
            return
        try:
            done = disputes.dispute_close(dispute_id=obj.pk, by=request.user,
                                          status=obj.status, resolution=obj.resolution)  # fmt: skip
        except ValueError as err:  # another admin decided between validation and now
            self.message_user(request, str(err), messages.ERROR)
            return
        for name in ("resolution", "resolved_by", "resolved_at"):  # for the admin's log line
            setattr(obj, name, getattr(done, name))

    def save_formset(self, request, form, formset, change: bool) -> None:
        if formset.model is not DisputeNote:
            return super().save_formset(request, form, formset, change)
        for note in formset.save(commit=False):  # only new notes: old ones are view-only
            disputes.dispute_note_add(dispute=form.instance, author=request.user, text=note.text)
