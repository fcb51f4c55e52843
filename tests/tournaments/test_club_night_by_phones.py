"""A club night with no tablet at all (issue #24, "done when"): every table's sheet is
entered and confirmed from the players' own phones (``Authorization: Player …``, the
token of each player card), two rounds drawn in between, and the public board shows each
player as they chose (full name, "Anna B." or "Nr. 2") while the director sees every
full name."""

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory
from tournaments.models import SheetEvent, Table
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _commits(requests_commit):
    """Each change counts as committed (its versions bumped) by the next request, as the
    app's own requests commit: the players' pages follow the night's recomputes."""

PEOPLE = [("Anna Berger", "initial"), ("Bruno Heide", "number"), ("Clara Vogt", "full"),
          ("Dieter Lang", "full"), ("Eva Roth", "full"), ("Frank Sommer", "full"),
          ("Gisela Wolf", "full")]


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    return client


def play_round(phones: dict[int, APIClient], number: int) -> None:
    """Every player looks at their own page, finds their table; the players of each table
    enter its deals in turn on their phones and each confirms the sheet on their own."""
    tables: dict[int, dict[int, APIClient]] = {}
    for client in phones.values():
        now = client.get("/api/v1/me/").json()["now"]
        assert now["round"] == number
        tables.setdefault(now["table_id"], {})[now["seat"]] = client
    for table_id, seats in tables.items():
        size = len(seats)
        deals = {3: 3, 4: 4}[size]
        for n in range(1, deals + 1):
            dealer = (n - 1) % size + 1
            declarer = dealer % size + 1  # never the dealer, who sits out at a 4-table
            record = {"number": n, "declarer": declarer, "game": "grand", "matadors": 1,
                      "won": n % 2 == 1}
            resp = seats[(n - 1) % size + 1].post(f"/api/v1/tables/{table_id}/deals/", record,
                                                   format="json", HTTP_IDEMPOTENCY_KEY=f"{n}")
            assert resp.status_code == 201, resp.content
        answers = [seats[s].post(f"/api/v1/tables/{table_id}/confirm/", {}, format="json")
                   for s in sorted(seats)]
        assert all(a.status_code == 200 for a in answers), [a.content for a in answers]
        assert [a.json()["submitted"] for a in answers] == [False] * (size - 1) + [True]
        assert answers[-1].json()["confirmed"] == sorted(seats)


def test_a_club_night_entered_and_confirmed_on_the_players_phones(director_client, club,
                                                                    anon_client):
    created = director_client.post("/api/v1/tournaments/", {
        "name": "Clubabend ohne Tablet", "game": "skat", "published": True,
        "club": club.pk, "rules": {"series_deals_3": 3, "series_deals_4": 4}}, format="json")
    assert created.status_code == 201, created.content
    tid, slug = created.json()["id"], created.json()["slug"]
    phones: dict[int, APIClient] = {}
    for name, publication in PEOPLE:
        player = PlayerFactory(club=club, name=name)
        assert director_client.patch(f"/api/v1/players/{player.pk}/",
                                     {"publication": publication},
                                     format="json").status_code == 200
        pid = director_client.post(f"/api/v1/tournaments/{tid}/participants/",
                                   {"player": player.pk}, format="json").json()["id"]
        card = director_client.get(f"/api/v1/tournaments/{tid}/participants/{pid}/").json()
        assert card["personal_url"].endswith(f"/me/{card['personal_token']}/")
        phones[pid] = phone(card["personal_token"])

    for number in (1, 2):
        drawn = director_client.post(f"/api/v1/tournaments/{tid}/rounds/",
                                     {"method": "random", "seed": number}, format="json")
        assert drawn.status_code == 201, drawn.content
        play_round(phones, number)
        assert director_client.post(
            f"/api/v1/tournaments/{tid}/rounds/{number}/close/").status_code == 200
        standings_recompute(tournament_id=tid)

    # no table's token wrote anything: every deal and confirmation names a player's phone
    events = SheetEvent.objects.filter(table__round__tournament_id=tid,
                                       action__in=["deal_create", "confirm"])
    assert events.count() == 2 * (4 + 3) + 2 * 7
    assert not events.filter(participant__isnull=True).exists()
    assert Table.objects.filter(round__tournament_id=tid, submitted=True).count() == 4

    bruno_number = next(p for p in club.players.all() if p.name == "Bruno Heide") \
        .participations.get().start_number
    public = anon_client.get(f"/api/v1/tournaments/{tid}/standings/").json()
    names = {r["name"] for r in public["results"]}
    assert {"Anna B.", f"Nr. {bruno_number}", "Clara Vogt", "Gisela Wolf"} <= names
    board = anon_client.get(f"/p/{slug}/").content.decode()
    for text in (public, board):
        shown = str(text)
        assert "Berger" not in shown and "Heide" not in shown
    assert "Anna B." in board and "Clara Vogt" in board
    staff = director_client.get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert {"Anna Berger", "Bruno Heide"} <= {r["name"] for r in staff["results"]}
    # every player's page still shows their rank and both rounds after the night
    for client in phones.values():
        me = client.get("/api/v1/me/").json()
        assert me["rank"] is not None and [r["round"] for r in me["rounds"]] == [1, 2]
