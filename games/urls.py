"""REST routes of the games API, mounted at /api/."""

urlpatterns: list = []
