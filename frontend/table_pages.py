"""The table and the replay viewer pages (owned by the table work)."""

from django.http import HttpResponse


def table(request, game_id: int):
    return HttpResponse("table")


def replay(request, game_id: int):
    return HttpResponse("replay")
