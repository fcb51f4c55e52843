"""``GET /games/`` publishes the engines' option descriptions, and the stateless scorer
refuses any option value outside them with a 400 naming the field."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_games_list_describes_every_option_with_labels_bounds_and_choices(anon_client):
    games = {g["key"]: g for g in anon_client.get("/api/v1/games/").json()["results"]}
    series = games["skat"]["options"]["series_deals_4"]
    assert (series["type"], series["min"], series["max"]) == ("int", 1, 96)
    assert series["label"] == {"en": "Deals per series at a table of 4",
                               "de": "Spiele einer Serie am Vierertisch"}
    tariff = games["schafkopf"]["options"]["tariff"]
    assert tariff["type"] == "preset" and tariff["fields"]["laufende"]["max"] == 1000
    assert tariff["choices"][1]["value"] == "money_10_50"
    assert games["basler"]["rounds_planned"] == 4
    for game in games.values():
        for option in game["options"].values():
            assert option["label"]["de"] and option["help"]["en"]
            if option["type"] == "int" and "choices" not in option:
                assert "min" in option and "max" in option


@pytest.mark.parametrize("game, rules, field", [
    ("skat", {"series_deals_4": 1e30}, "series_deals_4"),
    ("skat", {"series_deals_3": 10**18}, "series_deals_3"),
    ("schafkopf", {"tariff": {"base_rufspiel": 1_000_000_000_000_000, "base_solo": 2,
                              "schneider": 1, "schwarz": 1, "laufende": 1}}, "tariff"),
    ("basler", {"round_deals": 49}, "round_deals"),
    ("baptistenskat", {"rounds": 24}, "rounds"),
])
def test_the_scorer_refuses_options_out_of_bounds_naming_the_field(anon_client, game, rules,
                                                                   field):
    resp = anon_client.post(f"/api/v1/games/{game}/score/",
                            {"players": 4, "rules": rules, "deals": []}, format="json",
                            HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400
    assert field in resp.json()["rules"]
    if game == "schafkopf":
        assert "base_rufspiel" in resp.json()["rules"]["tariff"]
