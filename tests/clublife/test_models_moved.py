"""Moving the club-life models from ``clubs`` to ``clublife`` kept every row.

The database goes back to the state before the move (``clubs.0002``), rows are written
with the models as they were then, and migrating forward must find them, under the
same tables, through the new app's models; the content types follow the models.
"""

import pytest

from tests.migrating import leaves, migrate

BEFORE = [("clubs", "0002_club_evenings_seasons_merges"), ("clublife", None),
          ("contenttypes", "0002_remove_content_type_name")]


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_seasons_rows_outbox_and_merges():
    old = migrate(BEFORE)
    ContentType = old.get_model("contenttypes", "ContentType")
    season_type = ContentType.objects.get_or_create(app_label="clubs", model="season")[0]
    Club, Player = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
    club = Club.objects.create(name="Herz Dame", slug="herz-dame")
    player = Player.objects.create(name="Anna", club=club)
    season = old.get_model("clubs", "Season").objects.create(
        club=club, game="skat", year=2026, best_n=10, evenings=3)
    old.get_model("clubs", "SeasonRow").objects.create(
        season=season, player=player, position=1, rank=1, score=1234, figures={"won": 5},
        attended=3, counted=3, results=[{"evening": 1}])
    old.get_model("clubs", "SeasonOutbox").objects.create(season=season)
    old.get_model("clubs", "PlayerMerge").objects.create(
        kept=player, kept_name="Anna", removed_id=99, removed_name="Anna B.",
        participations=2)

    new = migrate(leaves())

    moved = new.get_model("clublife", "Season").objects.get()
    assert (moved.pk, moved.club_id, moved.best_n, moved.evenings) == (season.pk, club.pk, 10, 3)
    row = new.get_model("clublife", "SeasonRow").objects.get()
    assert (row.season_id, row.player_id, row.score, row.figures) == (
        season.pk, player.pk, 1234, {"won": 5})
    assert new.get_model("clublife", "SeasonOutbox").objects.filter(season=moved).count() == 1
    merge = new.get_model("clublife", "PlayerMerge").objects.get()
    assert (merge.kept_id, merge.removed_name) == (player.pk, "Anna B.")
    assert new.get_model("clublife", "Season")._meta.db_table == "clubs_season"
    season_type = new.get_model("contenttypes", "ContentType").objects.get(pk=season_type.pk)
    assert (season_type.app_label, season_type.model) == ("clublife", "season")
