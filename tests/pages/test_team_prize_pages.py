"""The console's teams and prize pages, the cash report pages and the team ranking on
the board: German by default, every error next to its field, nothing stored on an
error, and queries that do not grow with the field."""

import pytest

from prizes.models import FeeEvent, PrizeList
from prizes.services import prizes_set
from tests.ratings.list_helpers import played, players
from tests.scale import costs, two_sizes
from tournaments.models import Participant, Team
from tournaments.services.teams import team_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_browser(client, director):
    client.force_login(director)
    return client


def people(tournament):
    return list(Participant.objects.filter(tournament=tournament).order_by("start_number"))


def test_teams_page_creates_edits_and_removes_a_team(staff_browser, short_skat):
    url = f"/console/t/{short_skat.pk}/teams/"
    page = staff_browser.get(url)
    assert page.status_code == 200
    assert "Mannschaften" in page.content.decode() and "Neue Mannschaft" in page.content.decode()
    first, second, third = people(short_skat)[:3]
    made = staff_browser.post(f"{url}new/", {"name": "Kreuz Buben",
                                             "members": [first.pk, second.pk]})
    assert made.status_code == 302
    team = Team.objects.get(tournament=short_skat)
    assert set(team.members.values_list("pk", flat=True)) == {first.pk, second.pk}
    edited = staff_browser.post(f"{url}{team.pk}/", {
        f"team{team.pk}-name": "Pik Damen", f"team{team.pk}-members": [first.pk, third.pk]})
    assert edited.status_code == 302
    team.refresh_from_db()
    assert team.name == "Pik Damen"
    assert set(team.members.values_list("pk", flat=True)) == {first.pk, third.pk}
    shown = staff_browser.get(url).content.decode()
    assert "Pik Damen" in shown and "Mannschaftswertung" in shown
    ask = staff_browser.post(f"{url}{team.pk}/remove/")  # asked first, nothing removed
    assert ask.status_code == 200 and "„Pik Damen“ entfernen?" in ask.content.decode()
    assert f'href="{url}"' in ask.content.decode() and Team.objects.exists()
    assert staff_browser.post(f"{url}{team.pk}/remove/", {"confirm": "yes"}).status_code == 302
    assert not Team.objects.exists()


def test_a_team_with_a_taken_name_is_refused_next_to_the_field(staff_browser, short_skat):
    team_create(tournament_id=short_skat.pk, name="Asse")
    resp = staff_browser.post(f"/console/t/{short_skat.pk}/teams/new/", {"name": "asse"})
    assert resp.status_code == 400
    assert "hat schon diesen Namen" in resp.content.decode()
    assert Team.objects.count() == 1


def test_pasted_team_lines_fill_teams_or_name_every_bad_line(staff_browser, short_skat):
    url = f"/console/t/{short_skat.pk}/teams/lines/"
    one, two, three = people(short_skat)[:3]
    bad = staff_browser.post(url, {"lines": f"Asse; {one.start_number}\nAsse; Niemand\n"
                                            f"Zehner {two.start_number}"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "Zeile 2" in text and "Niemand" in text and "Zeile 3" in text
    assert not Team.objects.exists()
    good = staff_browser.post(url, {"lines": f"Asse; {one.start_number}\n"
                                             f"Asse; {two.player.name}\n"
                                             f"Zehner\t{three.start_number}"})
    assert good.status_code == 302
    teams = {t.name: set(t.members.values_list("pk", flat=True))
             for t in Team.objects.filter(tournament=short_skat)}
    assert teams == {"Asse": {one.pk, two.pk}, "Zehner": {three.pk}}


def test_prize_page_reads_euros_and_lines_and_shows_the_payout(staff_browser, short_skat):
    url = f"/console/t/{short_skat.pk}/prizes/"
    assert "Startgeld" in staff_browser.get(url).content.decode()
    resp = staff_browser.post(url, {"entry_fee": "12,50", "payout_percent": "100",
                                    "kind": "percent", "places": "60\n40; Präsentkorb"})
    assert resp.status_code == 302, resp.content.decode()[-2000:]
    stored = PrizeList.objects.get(tournament=short_skat).config
    assert stored["entry_fee_cents"] == 1250
    assert stored["places_percent"] == [60, 40]
    assert stored["places_goods"] == ["", "Präsentkorb"]
    shown = staff_browser.get(url).content.decode()
    assert "87,50" in shown  # 7 × 12,50 €
    printed = staff_browser.get(f"{url}print/")
    assert printed.status_code == 200 and "Auszahlungsliste" in printed.content.decode()


@pytest.mark.parametrize("form, field_text", [
    ({"entry_fee": "zwölf", "payout_percent": "100", "kind": "percent", "places": ""},
     "Betrag in Euro"),
    ({"entry_fee": "10", "payout_percent": "100", "kind": "percent", "places": "60\n30"},
     "genau 100"),
    ({"entry_fee": "10", "payout_percent": "100", "kind": "percent", "places": "x; y"},
     "Zeile 1"),
])
def test_a_bad_prize_list_is_shown_and_not_stored(staff_browser, short_skat, form,
                                                  field_text):
    resp = staff_browser.post(f"/console/t/{short_skat.pk}/prizes/", form)
    assert resp.status_code == 400
    assert field_text in resp.content.decode()
    assert not PrizeList.objects.exists() and not FeeEvent.objects.exists()


@pytest.fixture
def with_categories(club, director):
    """Six players in one round (the guest 1000 first, then 900, 800, …); the first two
    (900 and 800) are Damen, nobody is Senioren yet."""
    people = players(club, 5) + players(None, 1, "Gast")
    tournament, participants = played(club, people, [900, 800, 700, 750, 100, 1000],
                                      won={0: 5, 1: 6, 2: 4, 3: 1})
    tournament.directors.add(director)
    tournament.categories = ["Damen", "Senioren"]
    tournament.save(update_fields=["categories"])
    for p in participants[:2]:
        p.categories = ["Damen"]
        p.save(update_fields=["categories"])
    return tournament, participants


def _section(html: str, heading: str) -> str:
    """The page's text from ``heading`` to the next heading."""
    start = html.index(heading)
    return html[start:html.index("<h", start + len(heading))]


def _field(html: str, name: str) -> str:
    """The paragraph of the prize form's field ``name``."""
    start = html.rindex("<p", 0, html.index(f'id="id_{name}"'))
    return html[start:html.index("</p>", start)]


def test_category_prize_lists_are_saved_and_paid_per_category(staff_browser,
                                                              with_categories):
    tournament, participants = with_categories
    url = f"/console/t/{tournament.pk}/prizes/"
    page = staff_browser.get(url).content.decode()
    assert "Preise je Kategorie" in page and "kein Anteil am Preisgeld" in page
    assert 'id="id_category_0"' in page and 'id="id_category_1"' in page
    form = {"entry_fee": "10", "payout_percent": "100", "kind": "fixed",
            "places": "; Pokal", "category_0": "5\n2,50; Buch", "category_1": ""}
    resp = staff_browser.post(url, form)
    assert resp.status_code == 302, resp.content.decode()[-2000:]
    stored = PrizeList.objects.get(tournament=tournament).config
    assert stored["categories"] == {"Damen": {"places_cents": [500, 250],
                                              "places_goods": ["", "Buch"]}}
    shown = staff_browser.get(url).content.decode()
    damen = _section(shown, "Preise: Damen")
    # the guest wins overall; a player may win in several lists: 900 takes the first
    assert "5,00" in damen and "Spieler 1" in damen and "Spieler 2" in damen
    assert damen.index("Spieler 1") < damen.index("5,00") < damen.index("Spieler 2")
    assert "5,00\n2,50; Buch" in _field(shown, "category_0")  # as stored
    # one prize per player: 900 now wins the 2nd overall place, Damen passes to 800
    tournament.one_prize_per_player = True
    tournament.save(update_fields=["one_prize_per_player"])
    form["places"] = "; Pokal\n; Buch"
    assert staff_browser.post(url, form).status_code == 302
    shown = staff_browser.get(url).content.decode()
    damen = _section(shown, "Preise: Damen")
    assert "Spieler 1" not in damen
    assert damen.index("Spieler 2") < damen.index("5,00")
    assert "Nur ein Preis je Spieler" in shown
    # the same service as the API: the fee's history is kept, one change one event
    assert FeeEvent.objects.filter(tournament=tournament).count() == 1
    form["category_0"] = ""  # emptied: the category has no prizes any more
    assert staff_browser.post(url, form).status_code == 302
    assert "categories" not in PrizeList.objects.get(tournament=tournament).config


@pytest.mark.parametrize("typed, field_text", [
    ("-5", "Zeile 1: ein Betrag in Euro von 0 bis 100000."),
    ("5\nzwölf; Buch", "Zeile 2: zuerst eine Zahl"),
    ("100000,01", "Zeile 1: ein Betrag in Euro"),
    ("5; " + "x" * 201, "Höchstens 200 Zeichen"),  # the service's refusal, at its field
])
def test_a_bad_category_amount_is_refused_next_to_its_field(staff_browser, with_categories,
                                                            typed, field_text):
    tournament, _participants = with_categories
    resp = staff_browser.post(f"/console/t/{tournament.pk}/prizes/", {
        "entry_fee": "10", "payout_percent": "100", "kind": "percent", "places": "100",
        "category_0": "", "category_1": typed})
    assert resp.status_code == 400
    html = resp.content.decode()
    assert field_text in _field(html, "category_1"), _field(html, "category_1")
    assert "field-error" not in _field(html, "category_0")
    assert not PrizeList.objects.exists() and not FeeEvent.objects.exists()


def test_a_bad_category_amount_in_english(staff_browser, with_categories):
    tournament, _participants = with_categories
    staff_browser.cookies["django_language"] = "en"
    resp = staff_browser.post(f"/console/t/{tournament.pk}/prizes/", {
        "entry_fee": "10", "payout_percent": "100", "kind": "percent", "places": "100",
        "category_0": "-1"}, HTTP_ACCEPT_LANGUAGE="en")  # the other category left out
    assert resp.status_code == 400
    assert "Line 1: an amount in euros from 0 to 100000." in _field(
        resp.content.decode(), "category_0")


def test_cash_pages_and_csv(staff_browser, short_skat, director):
    prizes_set(tournament_id=short_skat.pk, data={"entry_fee_cents": 1000,
                                                  "places_percent": [100]})
    page = staff_browser.get(f"/clubs/tournaments/{short_skat.pk}/cash/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Kassenbericht" in text and "70,00" in text
    csv = staff_browser.get(f"/clubs/tournaments/{short_skat.pk}/cash.csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert "Startgeld" in csv.content.decode("utf-8-sig")
    year = 2026
    short_skat.date = f"{year}-05-01"
    short_skat.save()
    season = staff_browser.get(f"/clubs/{short_skat.club.slug}/seasons/{year}/cash/")
    assert season.status_code == 200 and short_skat.name in season.content.decode()
    season_csv = staff_browser.get(f"/clubs/{short_skat.club.slug}/seasons/{year}/cash.csv")
    assert "70,00" in season_csv.content.decode("utf-8-sig")


def test_outsiders_do_not_reach_the_money(client, outsider, short_skat):
    client.force_login(outsider)
    for url in (f"/console/t/{short_skat.pk}/teams/", f"/console/t/{short_skat.pk}/prizes/",
                f"/clubs/tournaments/{short_skat.pk}/cash/"):
        assert client.get(url).status_code in (302, 403, 404), url


def test_english_pages(staff_browser, short_skat):
    staff_browser.cookies["django_language"] = "en"
    assert "New team" in staff_browser.get(f"/console/t/{short_skat.pk}/teams/",
                                           HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Entry fee" in staff_browser.get(f"/console/t/{short_skat.pk}/prizes/",
                                            HTTP_ACCEPT_LANGUAGE="en").content.decode()


def _with_teams(tournament):
    members = people(tournament)
    for i in range(0, len(members), 4):
        team_create(tournament_id=tournament.pk, name=f"Team {i // 4 + 1}",
                    members=[p.pk for p in members[i:i + 4]])
    prizes_set(tournament_id=tournament.pk, data={"entry_fee_cents": 500,
                                                  "places_percent": [50, 30, 20]})
    return tournament


PAGES = {
    "teams": ("staff_browser", lambda t: f"/console/t/{t.pk}/teams/"),
    "prizes": ("staff_browser", lambda t: f"/console/t/{t.pk}/prizes/"),
    "payout print": ("staff_browser", lambda t: f"/console/t/{t.pk}/prizes/print/"),
    "cash": ("staff_browser", lambda t: f"/clubs/tournaments/{t.pk}/cash/"),
    "board with teams": ("client", lambda t: f"/p/{t.slug}/"),
}


@pytest.mark.parametrize("page", PAGES)
def test_team_and_money_pages_cost_the_same_at_2_and_24_tables(request, club, director,
                                                               page):
    client_name, url_of = PAGES[page]
    client = request.getfixturevalue(client_name)
    worlds = [_with_teams(t) for t in two_sizes(club=club, director=director, rounds=1)]
    if page == "board with teams":
        assert "Mannschaftswertung" in client.get(url_of(worlds[1])).content.decode()
    assert len(costs(client, url_of, worlds)) == 1
