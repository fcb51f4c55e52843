"""House-rule forms generated from the engines' option descriptions: every option a labelled
field with its bounds, tariffs as a choice plus numbers, no raw key and no JSON to type, on
the console's rules form and on the club settings page."""

import re

import pytest
from django.utils import translation

from games.engines import all_engines, get_engine
from games.forms import initial_of, option_fields, rules_form_class
from tests.factories import TournamentFactory

SCHAFKOPF = get_engine("schafkopf")
CUSTOM = {"tariff": "custom", "tariff__base_rufspiel": "5", "tariff__base_solo": "20",
          "tariff__schneider": "5", "tariff__schwarz": "5", "tariff__laufende": "5",
          "round_deals": "32"}


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.key)
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_option_is_a_labelled_field_in_both_languages(engine, language):
    with translation.override(language):
        fields = option_fields(engine)
    for name, option in engine.OPTIONS.items():
        assert fields[name].label == option.label(language) != name
        assert fields[name].help_text == option.help(language)
        if option.kind == "int" and not option.choices:
            assert (fields[name].min_value, fields[name].max_value) == (option.min, option.max)


def test_the_tariff_is_a_choice_of_presets_plus_custom_numbers():
    with translation.override("de"):
        fields = option_fields(SCHAFKOPF)
    assert [label for _value, label in fields["tariff"].choices][0] == "Turnier (1/2/1/1/1 Punkte)"
    assert fields["tariff"].choices[-1][0] == "custom"
    assert fields["tariff__base_rufspiel"].label == "Rufspiel"
    assert fields["tariff__base_rufspiel"].max_value == 1000


@pytest.mark.parametrize("data, rules", [
    ({"tariff": "money_10_50", "round_deals": "32"}, {"tariff": "money_10_50"}),
    ({"tariff": "tournament", "round_deals": "24"}, {"round_deals": 24}),
    (CUSTOM, {"tariff": {"base_rufspiel": 5, "base_solo": 20, "schneider": 5, "schwarz": 5,
                         "laufende": 5}}),
])
def test_a_valid_form_gives_the_rules_that_differ_from_the_defaults(data, rules):
    form = rules_form_class(SCHAFKOPF)(data)
    assert form.is_valid(), form.errors
    assert form.rules() == rules
    assert SCHAFKOPF.options(form.rules())  # the engine accepts what the form gives


@pytest.mark.parametrize("change, field", [
    ({"tariff__laufende": ""}, "tariff__laufende"),
    ({"tariff__base_rufspiel": "1000000000000000"}, "tariff__base_rufspiel"),
    ({"tariff__base_solo": "-1"}, "tariff__base_solo"),
    ({"round_deals": "1e30"}, "round_deals"),
    ({"round_deals": "97"}, "round_deals"),
])
def test_a_bad_value_is_an_error_on_its_field(change, field):
    form = rules_form_class(SCHAFKOPF)({**CUSTOM, **change})
    assert not form.is_valid()
    assert field in form.errors


def test_initial_values_show_a_custom_tariff_in_its_fields():
    initial = initial_of(SCHAFKOPF, {"tariff": {"base_rufspiel": 5, "base_solo": 20,
                                                "schneider": 5, "schwarz": 5, "laufende": 5}})
    assert initial["tariff"] == "custom" and initial["tariff__base_solo"] == 20
    assert initial_of(SCHAFKOPF, {})["tariff"] == "tournament"


# --------------------------------------------------------------------------- pages


RAW = re.compile(r"kontra_re:|base_rufspiel:|\{&quot;|\{\"")


def body(html: str) -> str:
    """What a person sees: the page without its head (htmx's config is JSON there)."""
    return html.split("<body", 1)[1]


@pytest.mark.django_db
def test_the_console_rules_form_shows_labels_and_stores_a_custom_tariff(client, director):
    tournament = TournamentFactory(game="schafkopf")
    tournament.directors.add(director)
    client.force_login(director)
    html = client.get(f"/console/t/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Tarif" in html and "Turnier (1/2/1/1/1 Punkte)" in html and "Rufspiel" in html
    assert not RAW.search(body(html))
    resp = client.post(f"/console/t/{tournament.pk}/rules/", CUSTOM)
    assert resp.status_code == 302, resp.content.decode()
    tournament.refresh_from_db()
    assert tournament.rules["tariff"]["base_solo"] == 20
    resp = client.post(f"/console/t/{tournament.pk}/rules/",
                       {**CUSTOM, "tariff__base_rufspiel": "1000000000000000"})
    assert resp.status_code == 400 and 'errorlist' in resp.content.decode()
    tournament.refresh_from_db()
    assert tournament.rules["tariff"]["base_rufspiel"] == 5


@pytest.mark.django_db
def test_the_club_settings_page_sets_the_house_rules_of_the_club_game(client, director, club):
    club.admins.add(director)
    club.default_game = "skat"
    club.save()
    client.force_login(director)
    html = client.get(f"/clubs/{club.slug}/settings/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Kontra und Re" in html and "Spiele einer Serie am Vierertisch" in html
    assert not RAW.search(body(html))
    resp = client.post(f"/clubs/{club.slug}/settings/", {
        "default_game": "skat", "loss_fee": "0,50", "loss_fee_from": "", "loss_fee_high": "",
        "season_best_n": "", "season_min_evenings": "0",
        "rules-kontra_re": "on", "rules-grand_ouvert_base": "24", "rules-scoring": "plain",
        "rules-series_deals_3": "36", "rules-series_deals_4": "40"})
    assert resp.status_code == 302, resp.content.decode()
    club.refresh_from_db()
    assert club.default_rules == {"kontra_re": True, "scoring": "plain", "series_deals_4": 40}
    resp = client.post(f"/clubs/{club.slug}/settings/", {
        "default_game": "skat", "loss_fee": "0,50", "loss_fee_from": "", "loss_fee_high": "",
        "season_best_n": "", "season_min_evenings": "0", "rules-grand_ouvert_base": "24",
        "rules-scoring": "plain", "rules-series_deals_3": "36",
        "rules-series_deals_4": "100000"})
    assert resp.status_code == 400
    club.refresh_from_db()
    assert club.default_rules["series_deals_4"] == 40



def test_the_custom_tariff_values_say_which_choice_shows_them():
    """The page hides a preset's own numbers unless "custom" is chosen (static/js/page.js
    reads these attributes; tests/browser/test_tariff_form.py watches it happen)."""
    html = str(rules_form_class(SCHAFKOPF)(initial=initial_of(SCHAFKOPF, {})))
    assert re.search(r'<select name="tariff"[^>]*data-preset="tariff"', html)
    for sub in ("base_rufspiel", "base_solo", "schneider", "schwarz", "laufende"):
        assert re.search(rf'<input[^>]*name="tariff__{sub}"[^>]*data-custom-of="tariff"', html) \
            or re.search(rf'<input[^>]*data-custom-of="tariff"[^>]*name="tariff__{sub}"', html)
    assert html.count('data-custom-value="custom"') == 5
