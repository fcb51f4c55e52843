"""The standings as federation lists (api.md "Open results"):
``GET /tournaments/{id}/lists/{players|clubs|teams}.csv|.pdf``."""

import csv
import io
import re

import pytest

from tests.factories import ParticipantFactory, PlayerFactory
from tournaments.federation_lists import FederationList
from tournaments.pdf_lists import list_pdf
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db


def summary(client, table, seats) -> None:
    resp = client.put(f"/api/v1/tables/{table['id']}/summary/", {"seats": seats},
                      format="json")
    assert resp.status_code == 200, resp.content


@pytest.fixture
def played(director_client, short_skat, drawn):
    """Round 1 of short_skat entered as Skat summaries, the standings stored."""
    for table in drawn["tables"]:
        n = len(table["seats"])
        summary(director_client, table, [{"game_points": 24, "won": 1, "lost": 0}]
                + [{"game_points": 0, "won": 0, "lost": 0}] * (n - 1))
    standings_recompute(tournament_id=short_skat.pk, full=True)
    return short_skat


def rows_of(resp) -> list[list[str]]:
    assert resp.status_code == 200, resp.content
    assert resp["Content-Type"].startswith("text/csv")
    text = resp.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))


def test_players_list_as_csv_has_rounds_total_and_skat_figures(anon_client, played):
    rows = rows_of(anon_client.get(f"/api/v1/tournaments/{played.pk}/lists/players.csv",
                                   HTTP_ACCEPT_LANGUAGE="de"))
    assert rows[0] == ["Platz", "Startnummer", "Name", "Verein", "Runde 1", "Summe",
                       "Gewonnen", "Verloren"]
    assert len(rows) == 1 + 7
    best = rows[1]
    # Seeger-Fabian: 24 + 50 for the won game
    assert best[0] == "1" and best[4] == best[5] == "74" and best[6:] == ["1", "0"]
    assert all(row[3] for row in rows[1:])  # every player's club


def test_teams_and_clubs_lists(anon_client, played):
    played.club_ranking_k = 2
    played.save(update_fields=["club_ranking_k"])
    guest = ParticipantFactory(tournament=played, player=PlayerFactory(), start_number=99)
    assert guest  # a club of one player: ranked after the clubs with two
    clubs = rows_of(anon_client.get(f"/api/v1/tournaments/{played.pk}/lists/clubs.csv"))
    assert clubs[0][:3] == ["Platz", "Verein", "Summe"] and len(clubs) >= 2
    teams = rows_of(anon_client.get(f"/api/v1/tournaments/{played.pk}/lists/teams.csv"))
    assert teams[0][:3] == ["Platz", "Mannschaft", "Summe"]


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


def test_players_list_as_pdf(anon_client, played):
    resp = anon_client.get(f"/api/v1/tournaments/{played.pk}/lists/players.pdf")
    assert resp.status_code == 200
    assert resp["Content-Type"] == "application/pdf"
    assert resp.content.startswith(b"%PDF") and pdf_pages(resp.content) == 1


@pytest.mark.parametrize("rows, pages", [(0, 1), (30, 1), (31, 2), (65, 3)])
def test_a_pdf_has_one_page_per_30_rows(rows, pages):
    listing = FederationList("Spieler", ["Platz", "Name", "Summe"],
                             [[n + 1, f"Łukasz Żółć-Überlänge {n}" * 3, 1000 - n]
                              for n in range(rows)], [0.1, 0.7, 0.2])
    assert pdf_pages(list_pdf(listing, "Stadtmeisterschaft, 06.12.2026")) == pages


def test_unknown_kind_or_format_is_a_json_404(anon_client, played):
    for path in ("lists/rivals.csv", "lists/players.xls"):
        resp = anon_client.get(f"/api/v1/tournaments/{played.pk}/{path}")
        assert resp.status_code == 404 and resp.json()["detail"]


def test_an_unpublished_tournament_is_for_its_directors(anon_client, director_client, played):
    played.published = False
    played.save(update_fields=["published"])
    url = f"/api/v1/tournaments/{played.pk}/lists/players.csv"
    assert anon_client.get(url).status_code in (401, 404)
    assert director_client.get(url).status_code == 200


def test_the_console_links_the_lists(client, director, played):
    client.force_login(director)
    html = client.get(f"/console/t/{played.pk}/").content.decode()
    for kind, suffix in (("players", "csv"), ("players", "pdf")):
        assert f"/api/v1/tournaments/{played.pk}/lists/{kind}.{suffix}" in html


def test_a_negative_score_is_printed_with_the_minus_sign():
    from tournaments.pdf_lists import cell_text

    assert cell_text(-250, unicode=True) == "\u2212250"
    assert cell_text(250, unicode=True) == "250"
    assert cell_text(-250, unicode=False) == "-250"  # Helvetica has no U+2212


def test_a_column_title_shrinks_to_fit_instead_of_being_cut():
    """The players' list of three Skat rounds: "Gewonnen" in a column of 2/30 of the
    landscape line was printed "Gewonn…"; it is set smaller until it fits."""
    from tournaments.pdf_lists import _pdf, title_size

    pdf, family, _unicode = _pdf(landscape=True)
    pdf.add_page()
    column = (pdf.w - pdf.l_margin - pdf.r_margin) * 0.4 / 6
    size = title_size(pdf, family, "Gewonnen", column, 8)
    pdf.set_font(family, "B", size)
    assert 6 <= size <= 8 and pdf.get_string_width("Gewonnen") <= column - 2
    assert title_size(pdf, family, "Platz", column, 8) == 8
