"""Unique values, one request at a time (``clubs.uniques``): the answer a request gets
when the constraint, not the caller's check, finds the value taken — the branch a race
takes (``tests/foundation/test_racing_creates.py`` runs the races on PostgreSQL).

The services are called with a duplicate their callers' checks would have caught, so the
insert itself meets the constraint, on SQLite and on PostgreSQL alike.
"""

import pytest
from django.apps import apps
from django.db import IntegrityError, models, transaction
from django.utils import translation

from clubs.models import Club, Player
from clubs.services import club_create, player_create, player_update
from clubs.uniques import MESSAGES, create_with_slug, free_slug, violated
from games.engines import EngineUserError
from games.messages import render
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Participant, Tournament
from tournaments.services import participant_add, tournament_create

pytestmark = pytest.mark.django_db

PROJECT_APPS = ("clubs", "tournaments", "prizes", "signup", "clublife")

# Every other unique value of the project's models, and why no request can lose a race
# for it. A new constraint must be added here or to ``clubs.uniques.MESSAGES``.
NOT_RACED = {
    "clubs.Club.slug": "create_with_slug retries with the next free slug",
    "tournaments.Tournament.slug": "create_with_slug retries with the next free slug",
    "unique_start_number": "drawn under the tournament's row lock (participant_add)",
    "unique_round_number": "drawn under the tournament's row lock (round_draw)",
    "unique_table_number": "numbered inside the new round's transaction",
    "tournaments.Table.entry_token": "192 random bits (tournaments.tokens.new_token)",
    "tournaments.Participant.personal_token": "192 random bits (tournaments.tokens.new_token)",
    "one_confirmation_per_seat_and_version": "get_or_create under the table's row lock "
                                             "(sheet_confirm)",
    "unique_seat": "written with the round, or swapped under the table's lock",
    "seated_once_per_table": "written with the round, or swapped under the table's lock",
    "unique_deal_number": "numbered under the table's row lock (sheets)",
    "unique_idempotency_key": "tournaments.services.idempotency replays the first answer",
    "one_standings_page": "written under the standings state's row lock",
    "one_season_per_year": "get_or_create: the loser reads the winner's season",
    "prizes.PrizeList.tournament": "written under the tournament's row lock (prizes)",
    "tournaments.StandingsState.tournament": "get_or_create, then locked",
}


def _unique_values():
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.UniqueConstraint):
                yield constraint.name
        for field in model._meta.local_fields:
            if field.unique and not field.primary_key:
                yield f"{model._meta.label}.{field.name}"


def test_every_unique_value_is_answered_or_cannot_be_raced_for():
    found = set(_unique_values())
    assert found == set(MESSAGES) | set(NOT_RACED)
    assert not set(MESSAGES) & set(NOT_RACED)


# ------------------------------------------------------------ the services' answers


def _only_error(exc: EngineUserError):
    assert len(exc.errors) == 1
    return exc.errors[0]


def test_registering_a_registered_player_names_the_player(tournament, club):
    player = PlayerFactory(club=club)
    participant_add(tournament=tournament, player=player)
    with transaction.atomic():  # the caller's transaction goes on after the answer
        with pytest.raises(EngineUserError) as caught:
            participant_add(tournament=tournament, player=player)
        assert Participant.objects.filter(tournament=tournament).count() == 1
    error = _only_error(caught.value)
    assert error.field == "player"
    with translation.override("de"):
        assert render(error) == "Dieser Spieler ist schon angemeldet."
    with translation.override("en"):
        assert render(error) == "This player is already registered."


def test_a_taken_member_number_names_the_member_number(club):
    player_create(name="Anna", club=club, member_number="17")
    with pytest.raises(EngineUserError) as caught:
        player_create(name="Bernd", club=club, member_number="17")
    assert _only_error(caught.value).field == "member_number"
    assert Player.objects.filter(club=club, member_number="17").count() == 1
    other = player_create(name="Carla", club=club)
    with pytest.raises(EngineUserError) as caught:
        player_update(player=other, member_number="17")
    error = _only_error(caught.value)
    assert error.field == "member_number"
    with translation.override("de"):
        assert render(error) == "Diese Mitgliedsnummer ist im Verein schon vergeben."
    assert Player.objects.get(pk=other.pk).member_number == ""


def test_the_same_member_number_in_another_club_or_none_is_fine(club):
    player_create(name="Anna", club=club, member_number="17")
    player_create(name="Bernd", club=Club.objects.create(name="B", slug="b"),
                  member_number="17")
    player_create(name="Carla", club=club)
    player_create(name="Dora", club=club)
    assert Player.objects.filter(member_number="17").count() == 2


def test_the_api_answers_a_taken_member_number_with_the_flat_error_list(director_client,
                                                                        club):
    body = {"name": "Anna", "club": club.pk, "member_number": "17"}
    assert director_client.post("/api/v1/players/", body, format="json").status_code == 201
    resp = director_client.post("/api/v1/players/", body, format="json")
    assert resp.status_code == 400
    assert [e["field"] for e in resp.json()["errors"]] == ["member_number"]


# ------------------------------------------------------------ slugs


def test_names_are_not_unique_slugs_are_numbered_as_before(director):
    clubs = [club_create(name="Grand Hand", admin=director) for _ in range(3)]
    assert [c.slug for c in clubs] == ["grand-hand", "grand-hand-2", "grand-hand-3"]
    tournaments = [tournament_create(name="Grand Hand", game="skat") for _ in range(2)]
    assert [t.slug for t in tournaments] == ["grand-hand", "grand-hand-2"]


def test_the_first_free_slug_fills_a_gap_and_ignores_longer_names(db):
    TournamentFactory(slug="pik")
    TournamentFactory(slug="pik-3")
    TournamentFactory(slug="pik-sieben")
    assert free_slug(Tournament, "Pik") == "pik-2"
    assert free_slug(Tournament, "") == "x"


def test_a_given_slug_is_kept_when_free_else_the_name_gives_one(db):
    first = create_with_slug(Club, "Herz Dame", slug="hd", name="Herz Dame")
    second = create_with_slug(Club, "Herz Dame", slug="hd", name="Herz Dame")
    assert (first.slug, second.slug) == ("hd", "herz-dame")


# ------------------------------------------------------------ reading the violation


def _violation(create) -> IntegrityError:
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        create()
    return caught.value


def test_the_violated_constraint_is_read_from_the_database_error(tournament, club):
    player = PlayerFactory(club=club, member_number="9")
    Participant.objects.create(tournament=tournament, player=player, start_number=1)

    exc = _violation(lambda: Club.objects.create(name="X", slug=club.slug))
    assert violated(exc, Club)[1] == ("slug",)
    assert violated(exc, Tournament) is None
    exc = _violation(lambda: Participant.objects.create(tournament=tournament, player=player,
                                                        start_number=2))
    assert violated(exc, Participant) == ("one_entry_per_player", ("tournament", "player"))
    exc = _violation(lambda: Participant.objects.create(
        tournament=tournament, player=PlayerFactory(club=club), start_number=1))
    assert violated(exc, Participant) == ("unique_start_number",
                                          ("tournament", "start_number"))
    exc = _violation(lambda: Player.objects.create(name="Y", club=club, member_number="9"))
    assert violated(exc, Player) == ("unique_member_number_per_club",
                                     ("club", "member_number"))


def test_a_start_number_clash_is_no_user_error_but_a_bug(tournament, club):
    """Start numbers are drawn under a lock; a clash there must not be dressed up."""
    from clubs.uniques import unique_errors

    Participant.objects.create(tournament=tournament, player=PlayerFactory(club=club),
                               start_number=1)
    with pytest.raises(IntegrityError), unique_errors(Participant):
        Participant.objects.create(tournament=tournament, player=PlayerFactory(club=club),
                                   start_number=1)
