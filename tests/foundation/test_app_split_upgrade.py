"""Splitting ``tournaments`` into apps of their own kept every row.

The database goes back to the last release (``tournaments.0022``, before the split), rows
of the models that moved are written with the models as they were then, and migrating
forward must find them, under the same tables, through the new apps' models; the content
types follow the models. The same test runs on PostgreSQL when ``DATABASE_URL`` says so.
"""

import datetime

import pytest

from tests.migrating import leaves, migrate

BEFORE = [("tournaments", "0022_history_hash_with_id"), ("prizes", None),
          ("contenttypes", "0002_remove_content_type_name")]
AT = datetime.datetime(2026, 5, 1, 18, 30, tzinfo=datetime.UTC)


@pytest.mark.django_db(transaction=True)
def test_the_split_keeps_prize_lists_and_fee_history():
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

    new = migrate(leaves())

    prizes = new.get_model("prizes", "PrizeList").objects.get()
    assert (prizes.tournament_id, prizes.config, prizes.lot) == (
        tournament.pk, {"entry_fee_cents": 1200, "places_percent": [60, 40]}, [7, 3])
    moved = new.get_model("prizes", "FeeEvent").objects.get()
    assert (moved.pk, moved.tournament_id, moved.entry_fee_cents, moved.user_id, moved.at) == (
        fee.pk, tournament.pk, 1200, director.pk, AT)
    prize_type = new.get_model("contenttypes", "ContentType").objects.get(pk=prize_type.pk)
    assert (prize_type.app_label, prize_type.model) == ("prizes", "prizelist")
