"""Celery app; configured from Django settings prefixed with CELERY_."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sejmi.settings")

app = Celery("sejmi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
