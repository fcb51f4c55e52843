"""A whole paper sheet typed in from the console, for every game: stored and scored as
the engine says, or — when a deal is refused — nothing stored and the error shown at its
row and field."""

import pytest
from django.test import Client

from games.engines import DealContext, get_engine
from tests.factories import ParticipantFactory, StaffFactory, TournamentFactory
from tournaments.models import Deal, SheetEvent, Table
from tournaments.services import round_draw

pytestmark = pytest.mark.django_db


def setup(club, game, players, rules=None):
    director = StaffFactory(username=f"leitung-{game}")
    tournament = TournamentFactory(club=club, game=game, rules=rules or {})
    tournament.directors.add(director)
    for n in range(players):
        ParticipantFactory(tournament=tournament, start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=1)
    client = Client()
    client.force_login(director)
    return client, Table.objects.get(round=rnd)


def expected_scores(table, number, record):
    tournament = table.round.tournament
    engine = get_engine(tournament.game)
    ctx = DealContext(number, table.seats.count(), engine.options(tournament.rules))
    return engine.score_deal(engine.validate_deal(record, ctx), ctx).scores


def per_seat(field, digits):
    return {f"d0-{field}-{seat}": digit for seat, digit in enumerate(digits, start=1)}


CASES = {
    "skat": (3, {"series_deals_3": 3}, [
        ({"d0-passed": "on"}, {"passed": True}),
        ({"d1-declarer": "2", "d1-game": "clubs", "d1-matadors": "1", "d1-won": "true"},
         {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}),
        ({"d2-declarer": "1", "d2-game": "grand", "d2-matadors": "-2", "d2-hand": "on",
          "d2-won": "false"},
         {"declarer": 1, "game": "grand", "matadors": -2, "hand": True, "won": False}),
    ]),
    "schafkopf": (4, {}, [
        ({"d0-game": "rufspiel", "d0-declarer": "2", "d0-partner": "3", "d0-called_ace": "acorns",
          "d0-declarer_points": "64", "d0-laufende": "3"},
         {"game": "rufspiel", "declarer": 2, "partner": 3, "called_ace": "acorns",
          "declarer_points": 64, "laufende": 3}),
        ({"d1-game": "passed"}, {"game": "passed"}),
    ]),
    "baptistenskat": (4, {}, [
        ({"d0-trump": "red", **per_seat("bids", "1110"),
          **per_seat("tricks", "2111")},
         {"cards": 5, "trump": "red", "bids": [1, 1, 1, 0], "tricks": [2, 1, 1, 1]}),
    ]),
    "labatarde": (4, {}, [
        ({"d0-trump": "spades", **per_seat("bids", "1110"),
          **per_seat("tricks", "2111")},
         {"cards": 5, "trump": "spades", "bids": [1, 1, 1, 0], "tricks": [2, 1, 1, 1],
          "mechoune": None, "choune": False}),
    ]),
    "basler": (4, {}, [
        ({"d0-tricks_a": "7", "d0-tricks_b": "5", "d0-last_trick": "A", "d0-points_a": "22",
          "d0-points_b": "18", "d0-meld0_seat": "1", "d0-meld0_rank": "king",
          "d0-meld0_count": "3"},
         {"tricks": [7, 5], "last_trick": "A", "card_points": [22, 18],
          "melds": [{"seat": 1, "rank": "king", "count": 3}], "captured": []}),
    ]),
}


@pytest.mark.parametrize("game", list(CASES))
def test_a_paper_sheet_is_stored_and_scored_as_the_engine_says(club, game):
    players, rules, rows = CASES[game]
    client, table = setup(club, game, players, rules)
    url = f"/console/table/{table.pk}/paper/"
    page = client.get(url).content.decode()
    assert 'data-number="1"' in page and "Geber" in page
    data = {}
    for posted, _record in rows:
        data.update(posted)
    resp = client.post(url, data)
    assert resp.status_code == 302, resp.content.decode()[-3000:]
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [d.number for d in deals] == list(range(1, len(rows) + 1))
    for deal, (_posted, record) in zip(deals, rows, strict=True):
        assert deal.scores == expected_scores(table, deal.number, record)
    assert SheetEvent.objects.filter(table=table, action="deal_create").count() == len(rows)


def cell(row_html, field):
    return row_html.split(f'data-field="{field}"', 1)[1].split('class="grid-cell"', 1)[0]


def test_a_refused_deal_is_shown_at_its_row_and_field_and_nothing_is_stored(club):
    client, table = setup(club, "skat", 3, {"series_deals_3": 3})
    resp = client.post(f"/console/table/{table.pk}/paper/", {
        "d0-passed": "on",
        "d1-declarer": "2", "d1-game": "clubs", "d1-matadors": "1",      # no result
        "d2-declarer": "1", "d2-game": "grand", "d2-matadors": "9", "d2-won": "true"})
    assert resp.status_code == 400
    html = resp.content.decode()
    second = html.split('data-row="1"', 1)[1].split("</fieldset>", 1)[0]
    assert "field-error" in cell(second, "won")
    assert "field-error" not in cell(second, "game")
    third = html.split('data-row="2"', 1)[1].split("</fieldset>", 1)[0]
    assert "field-error" in cell(third, "matadors")
    first = html.split('data-row="0"', 1)[1].split("</fieldset>", 1)[0]
    assert "field-error" not in first
    assert not Deal.objects.filter(table=table).exists()


def test_only_directors_type_in_paper_sheets(club, outsider):
    _client, table = setup(club, "skat", 3)
    client = Client()
    client.force_login(outsider)
    assert client.get(f"/console/table/{table.pk}/paper/").status_code in (403, 404)
    assert client.post(f"/console/table/{table.pk}/paper/",
                       {"d0-passed": "on"}).status_code in (403, 404)
    assert not Deal.objects.filter(table=table).exists()


def test_the_skat_grid_offers_kontra_and_re_with_the_house_rule_and_stores_them(club):
    client, table = setup(club, "skat", 3, {"series_deals_3": 3, "kontra_re": True})
    url = f"/console/table/{table.pk}/paper/"
    page = client.get(url).content.decode()
    assert 'data-field="kontra"' in page and 'data-field="re"' in page
    resp = client.post(url, {"d0-declarer": "2", "d0-game": "clubs", "d0-matadors": "1",
                             "d0-won": "true", "d0-kontra": "on", "d0-re": "on"})
    assert resp.status_code == 302, resp.content.decode()[-3000:]
    deal = Deal.objects.get(table=table, number=1)
    assert deal.record["kontra"] is True and deal.record["re"] is True
    record = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True, "kontra": True,
              "re": True}
    assert deal.scores == expected_scores(table, 1, record)
    assert deal.scores[1] == 4 * 24  # clubs with 1, game 2: 24, Re quadruples


def test_the_skat_grid_has_no_kontra_and_re_without_the_house_rule(club):
    client, table = setup(club, "skat", 3, {"series_deals_3": 3})
    page = client.get(f"/console/table/{table.pk}/paper/").content.decode()
    assert 'data-field="kontra"' not in page and 'data-field="re"' not in page


@pytest.mark.parametrize("game, players, rules", [
    ("skat", 3, {"kontra_re": True, "ramsch": True}), ("skat", 4, {}),
    ("schafkopf", 4, {}), ("baptistenskat", 4, {}), ("labatarde", 5, {}), ("basler", 4, {})])
def test_the_grid_offers_every_field_of_the_record_that_applies(club, game, players, rules):
    client, table = setup(club, game, players, rules)
    page = client.get(f"/console/table/{table.pk}/paper/").content.decode()
    engine = get_engine(game)
    for field in engine.record_fields(engine.options(rules), players):
        if field.widget == "hint":
            continue
        stem = field.input or field.name
        assert f'data-field="{stem}' in page, field.name


@pytest.mark.parametrize("language, penalty, absagen, wrong", [
    ("de", "Strafe 1: Art", "Strafe 2: Absagen", "Strafen 1"),
    ("en", "Penalty 1: Kind", "Penalty 2: Absagen", "Penalties 1")])
def test_a_penalty_row_is_named_as_a_person_writes_it(club, language, penalty, absagen, wrong):
    """Two penalty rows on the Doppelkopf grid: "Strafe 1", "Strafe 2" — one penalty
    each, never the plural with a number ("Strafen 1")."""
    client, table = setup(club, "doppelkopf", 4)
    page = client.get(f"/console/table/{table.pk}/paper/",
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert penalty in page and absagen in page
    assert wrong not in page
