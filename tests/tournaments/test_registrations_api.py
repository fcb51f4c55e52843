"""Sign-up, the waiting list and check-in through the API (api.md, "Sign-up and
check-in"; issue 29), with the e-mails in Django's test outbox."""

import datetime

import pytest
from django.core import mail
from django.utils import timezone

from config.env import redis_cache
from tests.conftest import player_client
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory
from tournaments.models import Participant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mails_in_process(in_process_tasks):
    """The e-mail tasks run in process after the commit (also in CI's Redis pass), so
    their mails land in Django's test outbox."""


@pytest.fixture
def open_event(tournament, director_client):
    tournament.published = True
    tournament.save()
    resp = director_client.patch(f"/api/v1/tournaments/{tournament.pk}/",
                                 {"registration": {"open": True, "cap": 2, "check_in": True}},
                                 format="json")
    assert resp.status_code == 200, resp.content
    assert resp.json()["registration"]["cap"] == 2
    return tournament


def sign_up(client, tournament, remote="127.0.0.1", **body):
    return client.post(f"/api/v1/tournaments/{tournament.pk}/registrations/", body,
                       format="json", REMOTE_ADDR=remote)


def by_token(url: str) -> Participant:
    return Participant.objects.get(personal_token=url.rstrip("/").rsplit("/", 1)[1])


def test_capped_event_fills_then_waits_in_order_and_moves_up_on_cancel(
        open_event, anon_client, director_client, django_capture_on_commit_callbacks):
    answers = []
    with django_capture_on_commit_callbacks(execute=True):
        for n, name in enumerate(["Anna Berger", "Bernd Ott", "Carla Ruf", "Dieter Hahn"]):
            resp = sign_up(anon_client, open_event, name=name, email=f"p{n}@example.org")
            assert resp.status_code == 201, resp.content
            answers.append(resp.json())
    assert [a["status"] for a in answers] == ["registered", "registered", "waiting", "waiting"]
    assert [a.get("position") for a in answers] == [None, None, 1, 2]
    assert "position" not in answers[0]
    assert [m.to for m in mail.outbox] == [[f"p{n}@example.org"] for n in range(4)]
    # the registrant's language: German by default
    assert "Nummer 1 auf der Warteliste" in mail.outbox[2].body

    first = by_token(answers[0]["personal_url"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert player_client(first).delete("/api/v1/me/registration/").status_code == 204
        assert player_client(first).delete("/api/v1/me/registration/").status_code == 204
    rows = director_client.get(f"/api/v1/tournaments/{open_event.pk}/registrations/").json()
    assert [(r["name"], r["status"], r["position"]) for r in rows] == [
        ("Bernd Ott", "registered", None), ("Carla Ruf", "registered", None),
        ("Dieter Hahn", "waiting", 1), ("Anna Berger", "cancelled", None)]
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p2@example.org"]
    assert any("Platz" in m.subject for m in mail.outbox if m.to == ["p2@example.org"])


def test_only_checked_in_registrants_are_drawn(open_event, anon_client, director_client,
                                               django_capture_on_commit_callbacks):
    director_client.patch(f"/api/v1/tournaments/{open_event.pk}/",
                          {"registration": {"cap": 8}}, format="json")
    pids = []
    for n in range(6):
        resp = anon_client.post(f"/api/v1/tournaments/{open_event.pk}/registrations/",
                                {"name": f"Spieler {n}", "email": f"s{n}@example.org"},
                                format="json", HTTP_ACCEPT_LANGUAGE="en")
        pids.append(by_token(resp.json()["personal_url"]).pk)
    for pid in pids[:3]:
        resp = director_client.patch(f"/api/v1/tournaments/{open_event.pk}/participants/{pid}/",
                                     {"checked_in": True, "paid": True}, format="json")
        assert resp.status_code == 200, resp.content
        assert resp.json()["paid"] is True
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        resp = director_client.post(f"/api/v1/tournaments/{open_event.pk}/rounds/",
                                    {"method": "random", "seed": 1}, format="json")
    assert resp.status_code == 201, resp.content
    seated = {s["participant"] for t in resp.json()["tables"] for s in t["seats"]}
    assert seated == set(pids[:3])
    assert sorted(m.to[0] for m in mail.outbox) == ["s0@example.org", "s1@example.org",
                                                    "s2@example.org"]
    assert mail.outbox[0].subject == "Round 1 is drawn: table 1"


def test_closed_and_past_deadline_answer_409_with_why(tournament, anon_client,
                                                      director_client):
    tournament.published = True
    tournament.save()
    resp = sign_up(anon_client, tournament, name="Anna Berger")
    assert resp.status_code == 409
    assert "nicht geöffnet" in resp.json()["detail"]
    past = (timezone.now() - datetime.timedelta(hours=1)).isoformat()
    director_client.patch(f"/api/v1/tournaments/{tournament.pk}/",
                          {"registration": {"open": True, "check_in": False, "deadline": past}},
                          format="json")
    resp = anon_client.post(f"/api/v1/tournaments/{tournament.pk}/registrations/",
                            {"name": "Anna Berger"}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 409
    assert "Anmeldeschluss" in resp.json()["detail"]
    assert not Participant.objects.filter(tournament=tournament).exists()


def test_known_player_is_matched_by_name_and_club_or_email(open_event, anon_client, club):
    member = PlayerFactory(name="Karin Schwarz", club=club)
    resp = sign_up(anon_client, open_event, name="  karin  SCHWARZ ", club=club.pk)
    assert by_token(resp.json()["personal_url"]).player == member
    again = sign_up(anon_client, open_event, name="Karin Schwarz", club=club.pk)
    assert again.status_code == 409  # matched, not doubled, and no one else's link
    assert "personal_url" not in again.json()
    assert Participant.objects.filter(tournament=open_event).count() == 1
    other = ParticipantFactory(player=PlayerFactory(name="Otto Guest", club=None),
                               email="otto@example.org")
    resp = sign_up(anon_client, open_event, name="Otto G.", email="OTTO@example.org")
    assert by_token(resp.json()["personal_url"]).player == other.player


def test_club_name_and_no_club(open_event, anon_client):
    named = ClubFactory(name="Skatfreunde Nord")
    resp = sign_up(anon_client, open_event, name="Eva Nord", club_name="skatfreunde  nord")
    assert by_token(resp.json()["personal_url"]).player.club == named
    resp = sign_up(anon_client, open_event, name="Fritz Frei")
    assert by_token(resp.json()["personal_url"]).player.club is None


def test_bad_input_names_every_field_and_stores_nothing(open_event, anon_client):
    resp = anon_client.post(f"/api/v1/tournaments/{open_event.pk}/registrations/",
                            {"name": "", "email": "nope", "publication": "all", "x": 1},
                            format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    body = resp.json()
    assert {"name", "email", "publication", "x"} <= set(body)
    resp = sign_up(anon_client, open_event, name="A\x00B")
    assert resp.status_code == 400 and "name" in resp.json()
    assert not Participant.objects.filter(tournament=open_event).exists()


def test_registration_settings_bounds(tournament, director_client):
    resp = director_client.patch(
        f"/api/v1/tournaments/{tournament.pk}/",
        {"registration": {"open": "yes", "cap": 0, "deadline": "0001-01-01T00:00:00Z",
                          "check_in": True}}, format="json")
    assert resp.status_code == 400
    assert {"open", "cap", "deadline"} <= set(resp.json()["registration"])


def test_list_is_the_directors_and_cancel_needs_a_player_token(open_event, anon_client,
                                                               outsider_client,
                                                               director_client):
    url = f"/api/v1/tournaments/{open_event.pk}/registrations/"
    assert anon_client.get(url).status_code == 401
    assert outsider_client.get(url).status_code == 403
    assert anon_client.delete("/api/v1/me/registration/").status_code == 401
    assert director_client.delete("/api/v1/me/registration/").status_code == 403


def test_rate_limit_per_address(open_event, anon_client, settings):
    from api.throttling import RegistrationRateThrottle

    settings.REGISTRATION_RATE = "2/min"
    try:
        codes = [sign_up(anon_client, open_event, name=f"Spam {n}",
                         remote="10.9.9.9").status_code for n in range(3)]
        assert codes == [201, 201, 429]
        resp = sign_up(anon_client, open_event, name="Spam 4", remote="10.9.9.9")
        assert int(resp["Retry-After"]) > 0
    finally:
        RegistrationRateThrottle.forget("10.9.9.9")


def test_rate_limit_holds_while_redis_is_down(open_event, anon_client, settings, caplog):
    """Redis unreachable (nothing listens on port 1): the sign-ups are still counted, in
    this process's memory, and the third from one address is refused."""
    from api.throttling import RegistrationRateThrottle

    settings.CACHES = {"default": redis_cache("redis://127.0.0.1:1/0", 0.2)}
    settings.REGISTRATION_RATE = "2/min"
    try:
        codes = [sign_up(anon_client, open_event, name=f"Spam {n}",
                         remote="10.9.9.8").status_code for n in range(3)]
        assert codes == [201, 201, 429]
        assert Participant.objects.filter(tournament=open_event,
                                          player__name__startswith="Spam").count() == 2
        assert "cache unavailable" in caplog.text
    finally:
        RegistrationRateThrottle.fallback.clear()


def test_release_time_releases_unchecked_and_moves_the_waiting_list_up(
        open_event, anon_client, director_client):
    from signup.services.registrations import registrations_release

    urls = [sign_up(anon_client, open_event, name=f"Spieler {n}").json()["personal_url"]
            for n in range(3)]
    first, second, third = (by_token(u) for u in urls)
    director_client.patch(f"/api/v1/tournaments/{open_event.pk}/participants/{first.pk}/",
                          {"checked_in": True}, format="json")
    soon = timezone.now() + datetime.timedelta(minutes=5)
    director_client.patch(f"/api/v1/tournaments/{open_event.pk}/",
                          {"registration": {"release_at": soon.isoformat()}}, format="json")
    assert registrations_release(tournament_id=open_event.pk) == 0  # not yet
    later = soon + datetime.timedelta(minutes=1)
    assert registrations_release(tournament_id=open_event.pk, now=later) == 1
    assert registrations_release(tournament_id=open_event.pk, now=later) == 0  # once
    statuses = {p.pk: p.status for p in Participant.objects.filter(tournament=open_event)}
    assert statuses == {first.pk: "registered", second.pk: "cancelled",
                        third.pk: "registered"}


def test_a_failing_mail_server_never_fails_the_sign_up(open_event, anon_client, settings,
                                                       django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 1
    with django_capture_on_commit_callbacks(execute=True):
        resp = sign_up(anon_client, open_event, name="Anna Berger", email="a@example.org")
    assert resp.status_code == 201
    assert Participant.objects.filter(tournament=open_event, status="registered").count() == 1
