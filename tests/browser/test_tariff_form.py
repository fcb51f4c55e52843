"""The director's house-rules form in a real Chromium: a Schafkopf tariff preset hides the
five custom values, "custom" shows them, and a preset saved with them hidden stores only
the preset."""

import pytest
from django.urls import reverse

from tests.browser.conftest import BEHAVIOUR_VIEWPORT, needs_chromium, shot
from tests.browser.test_director_console import logged_in
from tests.factories import ClubFactory, StaffFactory
from tournaments.models import Tournament
from tournaments.services import tournament_create

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

CUSTOM = ["base_rufspiel", "base_solo", "schneider", "schwarz", "laufende"]


def shown(page):
    return [name for name in CUSTOM if page.locator(f"[name=tariff__{name}]").is_visible()]


def test_custom_tariff_values_show_only_for_custom(live_server, browser):
    club = ClubFactory()
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    tournament = tournament_create(name="Schafkopf-Abend", game="schafkopf", club=club,
                                   director=director)
    context, page, errors = logged_in(browser, live_server, director, BEHAVIOUR_VIEWPORT)
    page.goto(live_server.url + reverse("console:tournament", args=[tournament.pk]) + "#rules")
    assert page.locator("select[name=tariff]").input_value() == "tournament"
    assert shown(page) == []
    page.select_option("select[name=tariff]", "money_10_50")
    assert shown(page) == []
    shot(page, "tariff-preset")
    page.select_option("select[name=tariff]", "custom")
    assert shown(page) == CUSTOM
    shot(page, "tariff-custom")
    page.select_option("select[name=tariff]", "money_10_50")
    assert shown(page) == []
    page.click("#rules button[type=submit]")
    page.wait_for_load_state()
    assert Tournament.objects.get(pk=tournament.pk).rules.get("tariff") == "money_10_50"
    context.close()
    assert errors == []
