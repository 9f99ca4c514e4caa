"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("games.urls")),
    path("api/", include("replays.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("replays.disputes.page_urls")),
    path("", include("frontend.urls")),
]

handler404 = "games.api.handlers.not_found_view"
handler500 = "games.api.handlers.server_error_view"
