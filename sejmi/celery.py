"""Celery app for deadlines and bot moves (games.tasks), configured from the Django settings
prefixed with CELERY_ (broker = CELERY_BROKER_URL, default REDIS_URL; the beat schedule of
the deadline sweeper).

    celery -A sejmi worker   # runs games.tasks.advance (at each deadline) and .sweep
    celery -A sejmi beat     # sends games.tasks.sweep every 5 s; run exactly one
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sejmi.settings")

app = Celery("sejmi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # games.tasks
