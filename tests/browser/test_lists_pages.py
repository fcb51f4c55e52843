"""The new pages at a phone's and a tablet's width (nothing scrolls sideways, a name
never breaks inside) and the ranking list's print as an A4 PDF: the ranking list, the
board with the club ranking, a category's print list, the console's categories and the
club's ranking lists in the console."""

import datetime
from pathlib import Path

import pytest

from ratings.ranking_lists.services import ranking_list_create
from tests.browser.conftest import ARTIFACTS, needs_chromium, shot
from tests.browser.test_print_standings import pdf_pages
from tests.factories import ClubFactory, PlayerFactory, StaffFactory
from tests.ratings.list_helpers import played
from tournaments.models import Participant, Tournament

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

NAMES = ["Maximiliane Oberhuber-Schwarzenbach", "Hans-Joachim Weißenberger",
         "Annegret Müller-Lüdenscheidt", "Friedrich Schneider", "Gertrud Hinterberger",
         "Wolfgang Kowalczyk", "Hildegard Zimmermann", "Karl-Heinz Großkopf"]
FITS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


def season():
    club = ClubFactory(name="Skatfreunde Oberhuber-Schwarzenbach 1952 e. V.", slug="sf")
    other = ClubFactory(name="Skatclub Grand Hand Lüdenscheid", slug="gh")
    director = StaffFactory(username="leitung")
    club.admins.add(director)
    people = [PlayerFactory(club=club if n % 2 else other, name=name)
              for n, name in enumerate(NAMES)]
    last = None
    for month in (2, 3, 4):
        order = people[month - 2:] + people[:month - 2]
        last, participants = played(club, order, [1200 - 97 * n for n in range(8)],
                                    date=datetime.date(2026, month, 1))
    Tournament.objects.filter(pk=last.pk).update(categories=["Damen", "Senioren"],
                                                 club_ranking_k=3)
    for p in participants[::2]:
        Participant.objects.filter(pk=p.pk).update(categories=["Damen"])
    last.directors.add(director)
    ranking = ranking_list_create(club=club, name="Jahresrangliste 2026 der Skatfreunde",
                                  game="skat", first=datetime.date(2026, 1, 1),
                                  last=datetime.date(2026, 12, 31), clubs=[club.pk, other.pk])
    return ranking, last, director


@pytest.mark.smoke
@pytest.mark.parametrize("width", [390, 800])
def test_new_pages_fit_phone_and_tablet(live_server, browser, width):
    ranking, tournament, director = season()
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    page = context.new_page()
    pages = {"ranking-list": f"/rankings/{ranking.pk}/",
             "board-club-ranking": f"/p/{tournament.slug}/",
             "print-category": f"/p/{tournament.slug}/print/?category=Damen"}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        shot(page, f"lists-{name}")
        scroll, inner = page.evaluate(FITS)
        assert scroll <= inner, (name, scroll, inner)
    page.goto(live_server.url + f"/p/{tournament.slug}/")
    assert page.locator(".club-standings tbody tr").count() == 2
    # the console: log in, then the categories page
    from django.contrib.auth.models import User
    user = User.objects.get(pk=director.pk)
    user.set_password("geheim-123")
    user.save()
    page.goto(live_server.url + "/accounts/login/?next=/console/t/"
              f"{tournament.pk}/categories/")
    page.fill("input[name=username]", "leitung")
    page.fill("input[name=password]", "geheim-123")
    page.locator("form [type=submit]").first.click()
    page.wait_for_url(f"**/console/t/{tournament.pk}/categories/")
    scroll, inner = page.evaluate(FITS)
    assert scroll <= inner, ("console", scroll, inner)
    shot(page, "lists-console-categories")
    # the club's ranking lists in the console, one refused points list showing its error
    page.goto(live_server.url + "/clubs/sf/ranking-lists/")
    page.fill("input[name=name]", "Herbstrangliste der Skatfreunde Oberhuber-Schwarzenbach")
    page.check("input[name=points_kind][value=list]")
    page.fill("input[name=points]", "25, 20, sechzehn")
    page.locator("form.stacked [type=submit]").click()
    page.locator("#id_points ~ .field-error").first.wait_for()  # the refused POST's page
    assert page.locator("#id_points ~ .field-error").count() == 1
    scroll, inner = page.evaluate(FITS)
    assert scroll <= inner, ("ranking-lists console", scroll, inner)
    shot(page, "lists-console-ranking-lists")
    context.close()


def test_the_ranking_list_prints_on_one_a4_page(live_server, browser):
    ranking, _tournament, _director = season()
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.goto(f"{live_server.url}/rankings/{ranking.pk}/print/")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1000})
    pdf = page.pdf(format="A4", print_background=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    Path(ARTIFACTS / "print-ranking-list.pdf").write_bytes(pdf)
    table = page.locator("table.ranking-list").bounding_box()
    assert table["width"] >= 0.95 * 718, table
    heights = [row.bounding_box()["height"] for row in page.locator(
        "table.ranking-list tbody tr").all()]
    assert max(heights) < 60, heights  # name and the places line
    assert pdf_pages(pdf) == 1
    context.close()
