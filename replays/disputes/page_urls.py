"""The disputes' browser page, mounted at the site's root (sejmi/urls.py)."""

from django.urls import path

from replays.disputes import pages

urlpatterns = [
    path("disputes/", pages.my_disputes, name="my-disputes"),
]
