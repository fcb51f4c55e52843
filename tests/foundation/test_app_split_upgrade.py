"""Splitting ``tournaments`` into apps of their own (``prizes``, ``signup``) kept every row.

The database goes back to the last release (``tournaments.0022``, before the split), rows
of the models that moved are written with the models as they were then, and migrating
forward must find them, under the same tables, through the new apps' models; the content
types follow the models. The same test runs on PostgreSQL when ``DATABASE_URL`` says so.
"""

import datetime

import pytest

from tests.migrating import leaves, migrate

BEFORE = [("tournaments", "0022_history_hash_with_id"), ("prizes", None), ("signup", None),
          ("contenttypes", "0002_remove_content_type_name")]
AT = datetime.datetime(2026, 5, 1, 18, 30, tzinfo=datetime.UTC)


@pytest.mark.django_db(transaction=True)
def test_the_split_keeps_prize_lists_fee_history_and_mails():
    old = migrate(BEFORE)
    ContentType = old.get_model("contenttypes", "ContentType")
    prize_type = ContentType.objects.get_or_create(app_label="tournaments",
                                                   model="prizelist")[0]
    User = old.get_model("auth", "User")
    director = User.objects.create(username="leiterin")
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Herbstskat", slug="herbstskat", game="skat")
    old.get_model("tournaments", "PrizeList").objects.create(
        tournament=tournament, config={"entry_fee_cents": 1200, "places_percent": [60, 40]},
        lot=[7, 3])
    fee = old.get_model("tournaments", "FeeEvent").objects.create(
        tournament=tournament, entry_fee_cents=1200, user=director)
    old.get_model("tournaments", "FeeEvent").objects.filter(pk=fee.pk).update(at=AT)
    player = old.get_model("clubs", "Player").objects.create(name="Anna Schmidt")
    anna = old.get_model("tournaments", "Participant").objects.create(
        tournament=tournament, player=player, start_number=1, email="anna@example.org",
        status="waiting", queue_number=1, self_registered=True)
    mail = old.get_model("tournaments", "Mail").objects.create(
        tournament=tournament, participant=anna, kind="waiting", extra={"position": 1},
        to="anna@example.org", base_url="https://skat.example.org", status="failed",
        attempts=9, note="550 mailbox unavailable", doubtful=1)
    mail_type = ContentType.objects.get_or_create(app_label="tournaments", model="mail")[0]

    new = migrate(leaves())

    prizes = new.get_model("prizes", "PrizeList").objects.get()
    assert (prizes.tournament_id, prizes.config, prizes.lot) == (
        tournament.pk, {"entry_fee_cents": 1200, "places_percent": [60, 40]}, [7, 3])
    moved = new.get_model("prizes", "FeeEvent").objects.get()
    assert (moved.pk, moved.tournament_id, moved.entry_fee_cents, moved.user_id, moved.at) == (
        fee.pk, tournament.pk, 1200, director.pk, AT)
    moved = new.get_model("signup", "Mail").objects.get()
    assert (moved.pk, moved.tournament_id, moved.participant_id, moved.kind, moved.extra) == (
        mail.pk, tournament.pk, anna.pk, "waiting", {"position": 1})
    assert (moved.to, moved.base_url, moved.status, moved.attempts, moved.note,
            moved.doubtful) == ("anna@example.org", "https://skat.example.org", "failed", 9,
                                "550 mailbox unavailable", 1)
    participant = new.get_model("tournaments", "Participant").objects.get()
    assert (participant.status, participant.queue_number, participant.self_registered) == (
        "waiting", 1, True)
    assert list(participant.mails.values_list("pk", flat=True)) == [mail.pk]
    ContentType = new.get_model("contenttypes", "ContentType")
    assert ContentType.objects.get(pk=prize_type.pk).app_label == "prizes"
    assert ContentType.objects.get(pk=mail_type.pk).app_label == "signup"
