"""Browser pages of the replays app, mounted at the site's root (sejmi/urls.py)."""

from django.urls import path

from replays import pages

urlpatterns = [
    path("disputes/", pages.my_disputes, name="my-disputes"),
]
