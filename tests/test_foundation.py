"""The project skeleton loads, passes Django's checks and serves a page."""

import pytest
from django.conf import settings
from django.core.management import call_command


def test_settings_load_and_system_check_passes() -> None:
    assert settings.ROOT_URLCONF == "sejmi.urls"
    call_command("check")


@pytest.mark.django_db
def test_admin_login_page_answers_200(client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200
