"""A club's member list from CSV: a preview per line, an import all or nothing."""

import gc
import io
from wsgiref.util import setup_testing_defaults

import pytest
from django.test.client import ClientHandler
from rest_framework.authtoken.models import Token

from api.parsers import collection_paused
from clubs.member_csv import FileProblem, decode, parse_members
from clubs.models import Player
from clubs.names import loose_key
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

GOOD = "Name;Mitgliedsnummer\nAnna Schmidt;101\nBernd Weber;102\n\nCarla Roth;\n"
BAD = ("Name;Mitgliedsnummer\n"
       "Anna Schmidt;101\n"       # line 2: fine
       ";102\n"                   # line 3: no name
       "Bernd Weber;101\n"        # line 4: number already on line 2
       "Dora Kunz;7\n"            # line 5: 7 belongs to someone else in the club
       "Emil Berg;8;extra\n")     # line 6: a third column


def preview(client, club, text):
    return client.post(f"/api/v1/clubs/{club.pk}/members/preview/", {"csv": text},
                       format="json")


def do_import(client, club, text):
    return client.post(f"/api/v1/clubs/{club.pk}/members/import/", {"csv": text},
                       format="json")


def test_parsing_skips_the_header_and_blank_lines():
    lines = parse_members(GOOD)
    assert [(ln.number, ln.name, ln.member_number, ln.errors) for ln in lines] == [
        (2, "Anna Schmidt", "101", []), (3, "Bernd Weber", "102", []),
        (5, "Carla Roth", "", [])]


def test_comma_separated_files_without_header_are_read():
    assert [ln.name for ln in parse_members("Anna, 1\nBernd, 2\n")] == ["Anna", "Bernd"]


def test_windows_1252_files_are_decoded():
    assert decode("Jürgen;5\n".encode("cp1252")) == "Jürgen;5\n"
    assert decode("\ufeffJürgen;5\n".encode()) == "Jürgen;5\n"


def test_an_empty_file_is_a_problem():
    with pytest.raises(FileProblem):
        parse_members("Name;Mitgliedsnummer\n\n")


def test_preview_reports_every_bad_line_and_stores_nothing(director_client, club):
    PlayerFactory(club=club, name="Xaver Holz", member_number="7")
    before = Player.objects.count()
    resp = preview(director_client, club, BAD)
    assert resp.status_code == 200
    body = resp.json()
    assert body["valid"] is False
    statuses = {ln["line"]: (ln["status"], sorted(ln["errors"])) for ln in body["lines"]}
    assert statuses == {2: ("new", []), 3: ("error", ["name"]), 4: ("error", ["member_number"]),
                        5: ("error", ["member_number"]), 6: ("error", ["line"])}
    assert "Xaver Holz" in body["lines"][3]["errors"]["member_number"][0]
    assert Player.objects.count() == before


def test_an_import_with_bad_lines_imports_nothing(director_client, club):
    PlayerFactory(club=club, name="Xaver Holz", member_number="7")
    before = Player.objects.count()
    resp = do_import(director_client, club, BAD)
    assert resp.status_code == 400
    body = resp.json()
    assert sorted(body["lines"]) == ["3", "4", "5", "6"]
    assert body["lines"]["3"] == {"name": [body["lines"]["3"]["name"][0]]}
    assert {(e["line"], e["field"]) for e in body["errors"]} == {
        (3, "name"), (4, "member_number"), (5, "member_number"), (6, "line")}
    assert Player.objects.count() == before  # not even Anna of line 2


def test_a_good_import_creates_the_members_once(director_client, club):
    resp = do_import(director_client, club, GOOD)
    assert resp.status_code == 201, resp.content
    assert resp.json()["created"] == 3
    assert sorted(club.players.values_list("name", "member_number")) == [
        ("Anna Schmidt", "101"), ("Bernd Weber", "102"), ("Carla Roth", "")]
    again = do_import(director_client, club, GOOD)
    assert again.status_code == 201 and again.json()["created"] == 0
    assert preview(director_client, club, GOOD).json()["unchanged"] == 3


def test_outsider_cannot_import_members_into_a_club_he_does_not_run(outsider_client, club):
    assert do_import(outsider_client, club, GOOD).status_code == 403
    assert preview(outsider_client, club, GOOD).status_code == 403
    assert not club.players.exists()


def test_anonymous_cannot_import(anon_client, club):
    assert do_import(anon_client, club, GOOD).status_code in (401, 403)
    assert not club.players.exists()


def test_a_file_that_is_no_member_list_is_400(director_client, club):
    resp = do_import(director_client, club, "\n\n")
    assert resp.status_code == 400 and "csv" in resp.json()


# ------------------------------------------------------------------ near-duplicates

ALIKE = ("Name;Mitgliedsnummer\n"
         "Walter Zeller;101\n"          # line 2 ┐ one name, two numbers
         "Walter Zeller;104\n"          # line 3 ┘
         "Karl-Heinz Müller;201\n"      # line 4 ┐ case, hyphen and umlaut variants
         "karl heinz mueller;202\n"     # line 5 ┘
         "Dora Kunz;301\n"              # line 6: alike the member "Dora  kunz"
         "Emil Berg;401\n")             # line 7: nothing alike


def test_names_alike_within_the_paste_and_the_club_are_flagged(director_client, club):
    PlayerFactory(club=club, name="Dora-Kunz", member_number="9")
    body = preview(director_client, club, ALIKE).json()
    assert body["valid"] and body["suspects"] == 5
    alike = {line["line"]: line["alike"] for line in body["lines"]}
    assert alike[2] == ["Ähnlich wie Zeile 3: Walter Zeller (104)."]
    assert alike[5] == ["Ähnlich wie Zeile 4: Karl-Heinz Müller (201)."]
    assert alike[6] == ["Ähnlich wie das Mitglied Dora-Kunz (9)."]
    assert alike[7] == []
    assert club.players.count() == 1


def test_an_import_with_undecided_suspects_imports_nothing(director_client, club):
    resp = do_import(director_client, club, ALIKE)
    assert resp.status_code == 400
    assert sorted(resp.json()["lines"]) == ["2", "3", "4", "5"]
    assert "keep" in resp.json()["lines"]["2"]["name"][0]  # the API's field names
    assert not club.players.exists()


def test_the_director_keeps_or_drops_each_suspect(director_client, club):
    resp = director_client.post(f"/api/v1/clubs/{club.pk}/members/import/", {
        "csv": ALIKE, "keep": [2, 3, 4], "drop": [5]}, format="json")
    assert resp.status_code == 201, resp.content
    assert sorted(club.players.values_list("name", "member_number")) == [
        ("Dora Kunz", "301"), ("Emil Berg", "401"), ("Karl-Heinz Müller", "201"),
        ("Walter Zeller", "101"), ("Walter Zeller", "104")]


def test_a_suspect_list_in_english(director_client, club):
    resp = director_client.post(f"/api/v1/clubs/{club.pk}/members/preview/", {"csv": ALIKE},
                                format="json", HTTP_ACCEPT_LANGUAGE="en")
    line = resp.json()["lines"][0]
    assert line["alike"] == ["Alike line 3: Walter Zeller (104)."]


@pytest.mark.parametrize(("a", "b"), [
    ("Karl-Heinz Müller", "karl-heinz müller"), ("Karl-Heinz Müller", "Karl Heinz Mueller"),
    ("Jürgen Strauß", "Juergen Strauss"), ("Schwarz, Karin", "Karin  Schwarz")])
def test_names_alike(a, b):
    assert loose_key(a) == loose_key(b)


def test_other_names_are_not_alike():
    assert loose_key("Anna Schmidt") != loose_key("Anna Schmitt")


MAXIMAL_LISTS = b"[" + b",".join([b"[]"] * 800_000) + b"]"  # 2.4 MB, 800,001 lists


@pytest.mark.parametrize(("body", "field"), [
    (MAXIMAL_LISTS, ""),  # not an object
    # refused by the list's bound, not item by item
    (b'{"csv": "Anna;1", "as_new": [' + b",".join([b"[]"] * 800_000) + b"]}", "as_new"),
])
def test_a_maximal_body_of_the_wrong_shape_is_a_400_naming_where(body, field,
                                                                 director_client, club):
    resp = director_client.generic("POST", f"/api/v1/clubs/{club.pk}/members/preview/",
                                   body, content_type="application/json")
    assert resp.status_code == 400
    assert [e["field"] for e in resp.json()["errors"]] == [field]
    assert Player.objects.filter(club=club).count() == 0


def test_a_parsed_body_goes_with_its_answer(director, club):
    """The 800,001 lists a body parsed into are freed when the server has answered, not
    left to the cyclic collector to walk during a later request (as the WSGI server sees
    it: the test client keeps each answer, and with it the body)."""
    token = Token.objects.create(user=director).key
    handler, statuses = ClientHandler(), []
    for _ in range(2):  # the first request of a process freed it even with the cycle
        environ: dict = {}
        setup_testing_defaults(environ)
        environ.update(REQUEST_METHOD="POST",
                       PATH_INFO=f"/api/v1/clubs/{club.pk}/members/preview/",
                       CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(MAXIMAL_LISTS)),
                       HTTP_AUTHORIZATION=f"Token {token}", HTTP_HOST="testserver",
                       SERVER_NAME="testserver", **{"wsgi.input": io.BytesIO(MAXIMAL_LISTS)})
        gc.collect()
        with collection_paused():
            answer = handler(environ)  # the test client's server, without its client
            statuses.append(answer.status_code)
            content = answer.content
            del answer
            left = gc.collect()
        assert b"JSON" in content and left < 10_000
    assert statuses == [400, 400]
