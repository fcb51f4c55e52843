"""The round's clock (api.md "Rounds, corrections and the door"): the director starts,
pauses, resumes and extends it; it is stored as an end time, so the round's GET, the
clock's own GET and every page count down from the same instant; bad input is a 400
naming the field in the reader's language, a forbidden action a 409, and nothing is
stored."""

import datetime

import pytest

from games.errors import StateConflict, UserError
from tournaments.clock import Clock, apply
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 12, 6, 19, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return NOW + datetime.timedelta(minutes=minutes)


# ----------------------------------------------------------------- the pure decisions


def test_a_started_clock_runs_until_its_end_and_is_over_then():
    clock = apply(Clock(), "start", 45, NOW)
    assert clock.ends_at == at(45) and clock.minutes == 45
    assert clock.shown(at(10)) == {"state": "running", "ends_at": at(45),
                                   "remaining_seconds": 35 * 60, "minutes": 45}
    assert clock.shown(at(45))["state"] == "over"
    assert clock.shown(at(50))["remaining_seconds"] == 0
    assert Clock().shown(NOW) is None


def test_a_pause_keeps_what_was_left_and_a_resume_ends_that_much_later():
    paused = apply(apply(Clock(), "start", 30, NOW), "pause", None, at(10))
    assert paused.shown(at(25)) == {"state": "paused", "ends_at": None,
                                    "remaining_seconds": 20 * 60, "minutes": 30}
    resumed = apply(paused, "resume", None, at(25))
    assert resumed.ends_at == at(45) and resumed.state(at(44)) == "running"


def test_extending_adds_minutes_to_a_running_a_paused_and_a_run_out_clock():
    running = apply(Clock(), "start", 30, NOW)
    assert apply(running, "extend", 5, at(10)).ends_at == at(35)
    paused = apply(running, "pause", None, at(10))
    assert apply(paused, "extend", 5, at(12)).remaining(at(40)) == 25 * 60
    over = apply(running, "extend", 5, at(40))  # ran out at 30: five more from now
    assert over.ends_at == at(45) and over.minutes == 35


@pytest.mark.parametrize("clock, action", [
    (Clock(), "pause"), (Clock(), "resume"), (Clock(), "extend"),
    (Clock(ends_at=at(5), minutes=5), "start"), (Clock(ends_at=at(5), minutes=5), "resume"),
    (Clock(paused_seconds=60, minutes=5), "pause"), (Clock(paused_seconds=60, minutes=5),
                                                      "start"),
])
def test_an_action_the_state_forbids_is_a_conflict(clock, action):
    with pytest.raises(StateConflict):
        apply(clock, action, 5, NOW)


@pytest.mark.parametrize("action, minutes, field", [
    ("start", None, "minutes"), ("start", 0, "minutes"), ("extend", 601, "minutes"),
    ("start", True, "minutes"), ("start", 2.5, "minutes"), ("stop", 5, "action"),
])
def test_bad_input_names_its_field(action, minutes, field):
    with pytest.raises(UserError) as caught:
        apply(Clock(), action, minutes, NOW)
    assert [e.field for e in caught.value.errors] == [field]


# ----------------------------------------------------------------- the API


def clock_url(tournament_id: int, number: int = 1) -> str:
    return f"/api/v1/tournaments/{tournament_id}/rounds/{number}/clock/"


def test_the_director_starts_the_clock_and_everyone_reads_the_same_end(
        short_skat, drawn, director_client, anon_client):
    resp = director_client.post(clock_url(short_skat.pk), {"action": "start", "minutes": 40},
                                format="json")
    assert resp.status_code == 200, resp.content
    clock = resp.json()["clock"]
    assert clock["state"] == "running" and clock["minutes"] == 40
    assert 40 * 60 - 5 <= clock["remaining_seconds"] <= 40 * 60
    ends_at = Round.objects.get(tournament=short_skat, number=1).clock_ends_at
    assert datetime.datetime.fromisoformat(clock["ends_at"]) == ends_at
    # the round's GET and the clock's own GET show the same end, to anyone
    assert anon_client.get(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/").json()[
        "clock"]["ends_at"] == clock["ends_at"]
    read = anon_client.get(clock_url(short_skat.pk))
    assert read.json()["clock"]["ends_at"] == clock["ends_at"]
    # it moves with the time alone: no validator, every poll asks
    assert read["Cache-Control"] == "no-cache" and not read.has_header("ETag")


def test_pause_resume_and_extend_through_the_api(short_skat, drawn, director_client):
    url = clock_url(short_skat.pk)
    director_client.post(url, {"action": "start", "minutes": 30}, format="json")
    paused = director_client.post(url, {"action": "pause"}, format="json").json()["clock"]
    assert paused["state"] == "paused" and paused["ends_at"] is None
    assert 30 * 60 - 5 <= paused["remaining_seconds"] <= 30 * 60
    extended = director_client.post(url, {"action": "extend", "minutes": 10},
                                     format="json").json()["clock"]
    assert extended["remaining_seconds"] == paused["remaining_seconds"] + 600
    assert extended["minutes"] == 40
    resumed = director_client.post(url, {"action": "resume"}, format="json").json()["clock"]
    assert resumed["state"] == "running"
    assert extended["remaining_seconds"] - 5 <= resumed["remaining_seconds"] \
        <= extended["remaining_seconds"]


def test_a_clock_that_ran_out_says_over(short_skat, drawn, director_client, anon_client):
    director_client.post(clock_url(short_skat.pk), {"action": "start", "minutes": 5},
                         format="json")
    Round.objects.filter(tournament=short_skat).update(
        clock_ends_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1))
    clock = anon_client.get(clock_url(short_skat.pk)).json()["clock"]
    assert clock["state"] == "over" and clock["remaining_seconds"] == 0


@pytest.mark.parametrize("body, field, german", [
    ({"action": "start"}, "minutes", "Minuten"),
    ({"action": "start", "minutes": 0}, "minutes", "größer oder gleich 1"),
    ({"action": "start", "minutes": 601}, "minutes", "kleiner oder gleich 600"),
    ({"action": "start", "minutes": "viele"}, "minutes", "Ganzzahl"),
    ({"action": "halt", "minutes": 5}, "action", "halt"),
    ({}, "action", "erforderlich"),
])
def test_bad_input_is_a_german_400_naming_the_field_and_stores_nothing(
        short_skat, drawn, director_client, body, field, german):
    resp = director_client.post(clock_url(short_skat.pk), body, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 400, resp.content
    assert field in resp.json()
    assert german in str(resp.json()[field])
    assert Round.objects.get(tournament=short_skat, number=1).clock_minutes == 0


def test_what_the_state_forbids_is_a_409(short_skat, drawn, director_client):
    url = clock_url(short_skat.pk)
    assert director_client.post(url, {"action": "pause"}, format="json").status_code == 409
    director_client.post(url, {"action": "start", "minutes": 5}, format="json")
    resp = director_client.post(url, {"action": "start", "minutes": 5}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 409 and "Uhr" in resp.json()["detail"]
    Table.objects.filter(round__tournament=short_skat).update(submitted=True)
    director_client.post(f"/api/v1/tournaments/{short_skat.pk}/rounds/1/close/")
    assert director_client.post(url, {"action": "extend", "minutes": 5},
                                format="json").status_code == 409


def test_only_the_directors_set_the_clock(short_skat, drawn, anon_client, outsider_client,
                                         table_client):
    url = clock_url(short_skat.pk)
    for client in (anon_client, outsider_client, table_client):
        resp = client.post(url, {"action": "start", "minutes": 5}, format="json")
        assert resp.status_code in (401, 403)
    assert anon_client.get(clock_url(short_skat.pk, 2)).status_code == 404
    assert Round.objects.get(tournament=short_skat, number=1).clock_minutes == 0


# ----------------------------------------------------------------- the pages


def shown_end(html: str) -> datetime.datetime:
    """The end a page's clock counts down to."""
    return datetime.datetime.fromisoformat(html.split('data-ends="')[1].split('"')[0])


def start(short_skat, director_client, minutes=45):
    resp = director_client.post(clock_url(short_skat.pk), {"action": "start",
                                                           "minutes": minutes}, format="json")
    assert resp.status_code == 200, resp.content
    return resp.json()["clock"]


def test_the_board_shows_the_clock_large_and_polls_it(short_skat, drawn, director_client,
                                                     client, requests_commit):
    html = client.get(f"/p/{short_skat.slug}/").content.decode()
    assert 'data-clock ' in html and " hidden" in html.split("data-clock ")[1][:400]
    clock = start(short_skat, director_client)
    html = client.get(f"/p/{short_skat.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "clock-big" in html
    assert shown_end(html) == datetime.datetime.fromisoformat(clock["ends_at"])
    assert f'data-clock-url="{clock_url(short_skat.pk)}"' in html
    assert "Restzeit" in html and ("45:00" in html or "44:5" in html)


def test_the_players_page_and_the_sheet_show_the_same_end(short_skat, drawn, director_client,
                                                         client, table, requests_commit):
    from tests.conftest import player_client, seated

    clock = start(short_skat, director_client, 30)
    ends = datetime.datetime.fromisoformat(clock["ends_at"])
    player = seated(table)[0]
    mine = player_client(player).get("/api/v1/me/").json()["now"]["clock"]
    assert datetime.datetime.fromisoformat(mine["ends_at"]) == ends
    assert mine["state"] == "running"
    page = client.get(f"/me/{player.personal_token}/").content.decode()
    assert shown_end(page) == ends
    sheet = client.get(f"/t/{table['entry_token']}/").content.decode()
    assert shown_end(sheet) == ends and "js/clock.js" in sheet
    # a pause reaches the player's live part at once: its ETag moved
    etag = client.get(f"/me/{player.personal_token}/live/")["ETag"]
    director_client.post(clock_url(short_skat.pk), {"action": "pause"}, format="json")
    live = client.get(f"/me/{player.personal_token}/live/", HTTP_IF_NONE_MATCH=etag,
                      HTTP_ACCEPT_LANGUAGE="de")
    assert live.status_code == 200 and 'data-state="paused"' in live.content.decode()
    assert "Die Uhr ist angehalten." in live.content.decode()


def test_the_console_sets_the_clock_and_names_the_unfinished_tables_when_time_is_up(
        short_skat, drawn, client, director):
    client.force_login(director)
    url = f"/console/t/{short_skat.pk}/rounds/1/clock/"
    resp = client.post(url, {"action": "start", "minutes": "0"}, HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 302
    page = client.get(f"/console/t/{short_skat.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Minuten: " in page and "größer oder gleich 1" in page
    assert Round.objects.get(tournament=short_skat).clock_minutes == 0
    client.post(url, {"action": "start", "minutes": "20"})
    assert Round.objects.get(tournament=short_skat).clock_minutes == 20
    first = Table.objects.filter(round__tournament=short_skat).order_by("number").first()
    Table.objects.filter(pk=first.pk).update(submitted=True)
    Round.objects.filter(tournament=short_skat).update(
        clock_ends_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=1))
    page = client.get(f"/console/t/{short_skat.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    unfinished = page.split("Noch nicht fertige Tische:")[1].split("<")[0]
    numbers = {t.number for t in Table.objects.filter(round__tournament=short_skat)}
    assert unfinished.strip() == ", ".join(str(n) for n in sorted(numbers - {first.number}))
    assert "Die Zeit ist um." in page


# ----------------------------------------------------------------- the round's history


def test_every_clock_action_is_written_to_the_rounds_history(short_skat, drawn, director,
                                                            director_client, client):
    from tournaments.models import RoundEvent

    url = clock_url(short_skat.pk)
    answers = [director_client.post(url, body, format="json").json()["clock"] for body in (
        {"action": "start", "minutes": 30}, {"action": "pause"},
        {"action": "extend", "minutes": 10}, {"action": "resume"})]
    director_client.post(url, {"action": "pause", "minutes": 5}, format="json")  # paused
    director_client.post(url, {"action": "resume"}, format="json")
    director_client.post(url, {"action": "start", "minutes": 5}, format="json")  # 409
    events = list(RoundEvent.objects.filter(tournament=short_skat, number=1).order_by("pk"))
    assert [e.action for e in events] == ["start", "pause", "extend", "resume", "pause",
                                          "resume"]
    assert all(e.user == director and e.at is not None for e in events)
    start, pause, extend, resume = events[:4]
    assert start.before == {"ends_at": None, "paused_seconds": None, "minutes": 0}
    same = datetime.datetime.fromisoformat
    assert same(start.after["ends_at"]) == same(answers[0]["ends_at"])
    assert start.after["minutes"] == 30
    assert pause.before == start.after and pause.after["ends_at"] is None
    assert pause.after["paused_seconds"] == answers[1]["remaining_seconds"]
    assert extend.after["paused_seconds"] == pause.after["paused_seconds"] + 600
    assert same(resume.after["ends_at"]) == same(answers[3]["ends_at"])
    assert resume.after["minutes"] == 40
    # the console shows the round's history, who and what, in words
    client.force_login(director)
    page = client.get(f"/console/t/{short_skat.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    history = page.split('id="round-history"')[1].split("</details>")[0]
    assert "Verlauf der Runde 1 (6 Einträge)" in history
    assert history.count(director.username) == 6
    assert "Uhr gestartet: <span class=\"w\">nicht gestartet</span> → <span class=\"w\">endet" \
        in history
    left = pause.after["paused_seconds"]
    assert "Uhr angehalten: <span class=\"w\">endet" in history
    assert f"angehalten, Restzeit {left // 60}:{left % 60:02d}</span>" in history
    assert "Uhr verlängert" in history and "Uhr fortgesetzt" in history


def test_the_consoles_clock_buttons_write_the_history_too(short_skat, drawn, director,
                                                         client):
    from tournaments.models import RoundEvent

    client.force_login(director)
    url = f"/console/t/{short_skat.pk}/rounds/1/clock/"
    client.post(url, {"action": "start", "minutes": "0"})  # refused: nothing written
    client.post(url, {"action": "start", "minutes": "20"}, REMOTE_ADDR="10.3.0.7")
    event = RoundEvent.objects.get(tournament=short_skat)
    assert (event.action, event.user, event.ip, event.after["minutes"]) == (
        "start", director, "10.3.0.7", 20)
