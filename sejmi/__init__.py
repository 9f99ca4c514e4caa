"""Project package: settings, routing and the Celery app."""

from sejmi.celery import app as celery_app

__all__ = ("celery_app",)
