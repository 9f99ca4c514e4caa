"""Disputes: a seated player's claim about a moment of a game, and the staff's case file and
decision on it. A feature of its own beside the replays (replay, audit, transcript, export),
which it stands on: the case file shows their verification and transcript; nothing of the
replays imports it back.

models.py (Dispute, DisputeNote; re-exported by replays/models.py: app label `replays`, the same
tables), services.py (open, note, close; the caller's disputes and the staff's evidence),
routes.py (the REST endpoints), pages.py + page_urls.py (/disputes/), admin.py + case_file.py
(the staff's queue and case file). Templates and static files stay where Django looks for the
app's: replays/templates/ and replays/static/.
"""
