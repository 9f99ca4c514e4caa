"""The app's models, as Django and the migrations look them up (app label `replays`, the same
tables): the disputes keep theirs in replays/disputes/models.py, and this module only
re-exports them. Code imports a model from its feature, never from here."""

from replays.disputes.models import Dispute, DisputeNote

__all__ = ["Dispute", "DisputeNote"]
