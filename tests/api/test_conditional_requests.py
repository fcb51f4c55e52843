"""RFC 9110 conditional requests on every ETag'd answer (issue 14, item 3): weak tags,
lists and ``*`` in If-None-Match give 304 on GET; If-Match on a correction compares
strongly."""

import pytest

from tournaments.models import Deal
from tournaments.recompute.standings_rows import standings_recompute

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}


def variants(etag: str) -> list[str]:
    return [etag, f"W/{etag}", f'"other", {etag}', f'W/"other", W/{etag}', "*"]


def standings_url(tournament):
    return f"/api/v1/tournaments/{tournament.pk}/standings/"


@pytest.mark.parametrize("variant", range(5))
def test_standings_answer_304_to_every_matching_form(anon_client, outsider_client, short_skat,
                                                     variant):
    standings_recompute(tournament_id=short_skat.pk)
    etag = anon_client.get(standings_url(short_skat))["ETag"]
    tag = variants(etag)[variant]
    # staff who do not direct the tournament see the public answer
    for client in (outsider_client, anon_client):
        resp = client.get(standings_url(short_skat), HTTP_IF_NONE_MATCH=tag)
        assert resp.status_code == 304, (client, tag)
        assert resp["ETag"] == etag
        assert resp.content == b""


def test_the_directors_answer_with_full_names_has_its_own_etag(anon_client, director_client,
                                                             short_skat):
    standings_recompute(tournament_id=short_skat.pk)
    public = anon_client.get(standings_url(short_skat))["ETag"]
    full = director_client.get(standings_url(short_skat))
    assert full["ETag"] != public
    assert director_client.get(standings_url(short_skat),
                               HTTP_IF_NONE_MATCH=public).status_code == 200
    assert director_client.get(standings_url(short_skat),
                               HTTP_IF_NONE_MATCH=full["ETag"]).status_code == 304


def test_standings_answer_200_to_other_tags(anon_client, short_skat):
    standings_recompute(tournament_id=short_skat.pk)
    etag = anon_client.get(standings_url(short_skat))["ETag"]
    for tag in ('"other"', 'W/"other"', etag[:-2] + '"', "garbage"):
        resp = anon_client.get(standings_url(short_skat), HTTP_IF_NONE_MATCH=tag)
        assert resp.status_code == 200, tag
        assert resp.json()["results"] is not None


def test_standings_if_match_mismatch_on_a_read_is_json_412(anon_client, short_skat):
    resp = anon_client.get(standings_url(short_skat), HTTP_IF_MATCH='"nope"',
                           HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 412
    assert resp.json()["code"] == "precondition_failed"


def test_table_and_deal_reads_answer_304(table_client, table):
    posted = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                               {"number": 1, **CLUBS_WON}, format="json")
    deal_tag = posted["ETag"]
    deal_url = f"/api/v1/tables/{table['id']}/deals/1/"
    table_url = f"/api/v1/tables/{table['id']}/"
    table_tag = table_client.get(table_url)["ETag"]
    for url, etag in ((deal_url, deal_tag), (table_url, table_tag)):
        for tag in variants(etag):
            resp = table_client.get(url, HTTP_IF_NONE_MATCH=tag)
            assert resp.status_code == 304, (url, tag)
            assert resp["ETag"] == etag
        assert table_client.get(url, HTTP_IF_NONE_MATCH='"x"').status_code == 200


def test_a_correction_compares_if_match_strongly(table_client, table):
    posted = table_client.post(f"/api/v1/tables/{table['id']}/deals/",
                               {"number": 1, **CLUBS_WON}, format="json")
    etag = posted["ETag"]
    url = f"/api/v1/tables/{table['id']}/deals/1/"
    changed = {**CLUBS_WON, "matadors": 2}
    weak = table_client.put(url, changed, format="json", HTTP_IF_MATCH=f"W/{etag}")
    assert weak.status_code == 412
    assert Deal.objects.get().record["matadors"] == 1
    listed = table_client.put(url, changed, format="json", HTTP_IF_MATCH=f'"old", {etag}')
    assert listed.status_code == 200
    star = table_client.put(url, {**CLUBS_WON, "matadors": 3}, format="json",
                            HTTP_IF_MATCH="*")
    assert star.status_code == 200
    assert Deal.objects.get().record["matadors"] == 3
