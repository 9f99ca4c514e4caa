"""The staff's dispute queue: open disputes first, oldest first. Each dispute opens as a case
file (case_file.py, replays/templates/admin/replays/dispute/change_form.html): the verification
verdict first, the disputed moment with a link to the replay viewer, append-only notes and a
decision, then the transcript in the admin's language and the event log.

Game events are shown, never edited (GameEvent is not registered here). Notes can be added but
not changed or deleted (a PostgreSQL trigger backs this up). A decision, once made, is final.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import Case, Value, When
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from replays.disputes import case_file
from replays.disputes import services as disputes
from replays.disputes.models import Dispute, DisputeNote

OPEN_FIRST = Case(When(status=Dispute.Status.OPEN, then=Value(0)), default=Value(1)).asc()
DECISION_FIELDS = ["status", "resolution"]


class DisputeForm(forms.ModelForm):
    """Status and resolution move together: a resolution closes, a closing needs a resolution."""

    class Meta:
        model = Dispute
        fields = DECISION_FIELDS

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "status" not in self.fields:  # already decided: both fields are read-only
            return data
        status, resolution = data.get("status"), (data.get("resolution") or "").strip()
        if status == Dispute.Status.OPEN and resolution:
            self.add_error("status", _("a resolution closes the dispute: resolve or reject it "
                                       "(add a note for remarks while it stays open)"))  # fmt: skip
        if status in disputes.CLOSED and not resolution:
            self.add_error("resolution", _("say why: closing a dispute needs a resolution"))
        pk = self.instance.pk
        if status in disputes.CLOSED and not Dispute.objects.filter(pk=pk, status="open").exists():
            raise forms.ValidationError(_("another admin has already decided this dispute"))
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


def _lang(request) -> str:
    """The transcript's language: the admin's own (LocaleMiddleware), English by default."""
    return "cs" if getattr(request, "LANGUAGE_CODE", "en").startswith("cs") else "en"


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    form = DisputeForm
    inlines = [DisputeNoteInline]
    change_form_template = "admin/replays/dispute/change_form.html"
    list_display = ["id", "game", "seq", "status", "opened_by", "opened_at"]
    list_display_links = ["id", "game"]
    list_filter = ["status"]
    list_select_related = ["game", "opened_by"]
    search_fields = ["=game__id", "opened_by__username", "reason"]
    ordering = [OPEN_FIRST, "opened_at", "id"]  # type: ignore[list-item]  # an expression: Django takes it
    fieldsets = [
        (
            _("The claim"),
            {"fields": ["game", "opened_by", "opened_at", "disputed_moment", "reason"]},
        ),
        (_("Decision"), {"fields": [*DECISION_FIELDS, "resolved_by", "resolved_at"]}),
    ]
    base_readonly = ["game", "opened_by", "opened_at", "disputed_moment", "reason",
                     "resolved_by", "resolved_at"]  # fmt: skip

    class Media:
        css = {"all": ["replays/case_file.css"]}

    @admin.display(description=_("Disputed moment"))
    def disputed_moment(self, obj: Dispute) -> str:
        if obj.seq is None:
            return str(_("no event named"))
        url = case_file.replay_url(obj.game_id, obj.seq)
        return format_html('{} <a href="{}">{}</a>', _("seq %(seq)d") % {"seq": obj.seq}, url,
                           _("open the replay there"))  # fmt: skip

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The case file joins the form's context (only for staff who may see the dispute)."""
        extra = dict(extra_context or {})
        obj = self.get_object(request, unquote(object_id))
        if obj is not None and self.has_view_or_change_permission(request, obj):
            extra["case"] = case_file.build(obj, lang=_lang(request))
        return super().change_view(request, object_id, form_url, extra)

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
