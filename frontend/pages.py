"""Account, lobby and my-games pages (owned by the pages work)."""

from django.http import HttpResponse


def lobby(request):
    return HttpResponse("lobby")


def signup(request):
    return HttpResponse("signup")


def login_page(request):
    return HttpResponse("login")


def logout_page(request):
    return HttpResponse("logout")


def my_games(request):
    return HttpResponse("my games")
