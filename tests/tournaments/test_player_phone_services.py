"""The player's own phone, its core: a personal token acts at the player's own table in
the open round as the table token does (history naming the player); confirmations of the
sheet as it stands, submitted by the last one; objections hold the sheet open until the
director resolves them; calls for the director (api.md, "The player's own phone")."""

import pytest
from rest_framework.test import APIClient

from games.errors import UserError
from tests.conftest import player_client, seated
from tournaments.errors import StateConflict
from tournaments.models import DirectorCall, SheetEvent, Table
from tournaments.services import (
    Actor,
    call_raise,
    call_update,
    objection_raise,
    objection_resolve,
    sheet_confirm,
    sheet_submit,
)

pytestmark = pytest.mark.django_db

CLUBS_WON = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True}


def fill(client, table, count):
    for number in range(1, count + 1):
        resp = client.post(f"/api/v1/tables/{table['id']}/deals/",
                           {"number": number, **CLUBS_WON}, format="json")
        assert resp.status_code == 201, resp.content


def test_every_participant_gets_a_personal_token_of_192_bits(short_skat):
    tokens = list(short_skat.participants.values_list("personal_token", flat=True))
    assert len(set(tokens)) == 7 and all(len(t) >= 32 for t in tokens)


def test_a_player_enters_at_their_own_table_and_the_history_names_them(table):
    first = seated(table)[0]
    fill(player_client(first), table, 1)
    event = SheetEvent.objects.get(table_id=table["id"], action=SheetEvent.Action.DEAL_CREATE)
    assert event.participant == first and event.by_table and event.user is None


def test_a_player_token_never_reaches_another_table(table, other_table):
    first = seated(table)[0]
    client = player_client(first)
    assert client.get(f"/api/v1/tables/{other_table['id']}/").status_code == 404
    resp = client.post(f"/api/v1/tables/{other_table['id']}/deals/",
                       {"number": 1, **CLUBS_WON}, format="json")
    assert resp.status_code == 404
    assert not SheetEvent.objects.filter(table_id=other_table["id"]).exists()
    assert client.get(f"/api/v1/tables/{table['id']}/").status_code == 200


def test_an_unknown_token_is_404_not_401(table):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Player not-a-token")
    assert client.get(f"/api/v1/tables/{table['id']}/").status_code == 404


def test_a_player_token_may_not_read_the_directors_history(table):
    client = player_client(seated(table)[0])
    assert client.get(f"/api/v1/tables/{table['id']}/history/").status_code == 403


def test_the_last_confirmation_submits_and_a_change_voids_earlier_ones(table, table_client):
    players = seated(table)
    fill(table_client, table, 3)
    t = Table.objects.get(pk=table["id"])
    with pytest.raises(UserError):  # only for themselves
        sheet_confirm(table_id=t.pk, seat=2, actor=Actor(by_table=True, participant=players[0]))
    first = sheet_confirm(table_id=t.pk, actor=Actor(by_table=True, participant=players[0]))
    again = sheet_confirm(table_id=t.pk, actor=Actor(by_table=True, participant=players[0]))
    assert first.confirmed == again.confirmed == [1] and not again.submitted
    assert SheetEvent.objects.filter(table=t, action=SheetEvent.Action.CONFIRM).count() == 1
    # a correction voids the confirmation: the sheet confirmed is the sheet submitted
    etag = table_client.get(f"/api/v1/tables/{t.pk}/deals/3/")["ETag"]
    table_client.put(f"/api/v1/tables/{t.pk}/deals/3/", {**CLUBS_WON, "declarer": 3},
                     format="json", HTTP_IF_MATCH=etag)
    state = sheet_confirm(table_id=t.pk, seat=2, actor=Actor(by_table=True))
    assert state.confirmed == [2]
    sheet_confirm(table_id=t.pk, actor=Actor(by_table=True, participant=players[0]))
    done = sheet_confirm(table_id=t.pk, actor=Actor(by_table=True, participant=players[2]))
    assert done.submitted and done.confirmed == [1, 2, 3]
    t.refresh_from_db()
    assert t.submitted
    late = sheet_confirm(table_id=t.pk, actor=Actor(by_table=True, participant=players[1]))
    assert late.submitted and late.confirmed == [1, 2, 3]


def test_an_incomplete_sheet_cannot_be_confirmed(table, table_client):
    fill(table_client, table, 2)
    with pytest.raises(UserError) as err:
        sheet_confirm(table_id=table["id"], seat=1, actor=Actor(by_table=True))
    assert err.value.field == "deals"


def test_an_open_objection_holds_the_sheet_until_the_director_resolves_it(
        table, table_client, director):
    players = seated(table)
    fill(table_client, table, 3)
    objection = objection_raise(table_id=table["id"], deal=2, note="  Zu  viele Matadore ",
                                actor=Actor(by_table=True, participant=players[1]))
    assert objection.note == "Zu viele Matadore" and objection.deal_number == 2
    for p in players:
        state = sheet_confirm(table_id=table["id"], actor=Actor(by_table=True, participant=p))
    assert state.confirmed == [1, 2, 3] and not state.submitted
    with pytest.raises(StateConflict):
        sheet_submit(table_id=table["id"], actor=Actor(user=director))
    objection_resolve(objection_id=objection.pk, resolution="Geprüft, richtig.",
                      actor=Actor(user=director))
    assert Table.objects.get(pk=table["id"]).submitted
    actions = list(SheetEvent.objects.filter(table_id=table["id"])
                   .values_list("action", flat=True))
    assert actions.count("objection") == 1 and actions.count("objection_resolve") == 1


@pytest.mark.parametrize("note, field", [("", "note"), ("x" * 501, "note"),
                                         ("a\x00b", "note"), (17, "note")])
def test_an_objection_note_is_bounded_and_nothing_is_stored(table, note, field):
    with pytest.raises(UserError) as err:
        objection_raise(table_id=table["id"], note=note, actor=Actor(by_table=True))
    assert err.value.field == field
    assert not Table.objects.get(pk=table["id"]).objections.exists()


def test_an_objection_to_a_deal_not_on_the_sheet_names_the_deal(table):
    with pytest.raises(UserError) as err:
        objection_raise(table_id=table["id"], deal=9, note="?", actor=Actor(by_table=True))
    assert err.value.field == "deal"


def test_a_caller_has_one_call_until_it_is_closed(table, director):
    player = seated(table)[0]
    actor = Actor(by_table=True, participant=player)
    call, new = call_raise(table_id=table["id"], reason="Kartenfehler", actor=actor)
    again, new_again = call_raise(table_id=table["id"], reason="", actor=actor)
    assert new and not new_again and again.pk == call.pk
    tablet, tablet_new = call_raise(table_id=table["id"], actor=Actor(by_table=True))
    assert tablet_new and tablet.pk != call.pk
    staff = Actor(user=director)
    assert call_update(call_id=call.pk, status="seen", actor=staff).status == "seen"
    assert call_update(call_id=call.pk, status="closed", actor=staff).status == "closed"
    assert call_update(call_id=call.pk, status="seen", actor=staff).status == "closed"
    with pytest.raises(UserError):
        call_update(call_id=call.pk, status="open", actor=staff)
    _, newer = call_raise(table_id=table["id"], actor=actor)
    assert newer and DirectorCall.objects.filter(participant=player).count() == 2
