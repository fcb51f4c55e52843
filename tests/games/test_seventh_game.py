"""A seventh game is its engine (with its presentation, form, translations and tests):
registering an engine offers it everywhere a game is chosen and needs no migration, since the
game fields validate against the registry instead of naming the games (``games.choices``).
"""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from games.choices import game_choices, game_keys
from games.engines import Engine, register, unregister
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

KEY = "tarock_for_a_test"


class Tarock(Engine):
    key = KEY
    name_de = "Tarock (Test)"
    name_en = "Tarock (test)"
    table_sizes = (3, 4)
    preferred_table_size = 4


@pytest.fixture
def seventh_game():
    register(Tarock)
    yield KEY
    unregister(KEY)


@pytest.mark.django_db
def test_a_seventh_game_needs_no_migration(seventh_game):
    # exits with 1 (SystemExit) when a model's state differs from its migrations
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_a_seventh_game_is_offered_and_stored(seventh_game, director_client):
    assert seventh_game in [key for key, _name in game_choices()]
    form = TournamentForm(data={"name": "Tarockabend", "game": seventh_game})
    assert seventh_game in [key for key, _name in form.fields["game"].choices]
    resp = director_client.post("/api/v1/tournaments/", {"name": "Tarockabend",
                                                         "game": seventh_game},
                                format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert resp.status_code == 201, resp.json()
    tournament = Tournament.objects.get(pk=resp.json()["id"])
    assert tournament.game == seventh_game
    assert tournament.get_game_display() == "Tarock (Test)"
    # the open event document's schema offers it too, with no edit of the kept file
    served = director_client.get("/api/v1/formats/event/").json()
    assert seventh_game in served["$defs"]["tournament"]["properties"]["game"]["enum"]


@pytest.mark.django_db
def test_a_game_no_engine_plays_is_refused_by_the_model():
    assert KEY not in game_keys()  # unregistered cleanly by the fixture
    with pytest.raises(ValidationError) as refused:
        Tournament(name="Abend", slug="abend", game=KEY).full_clean()
    assert refused.value.message_dict == {"game": [f"Unbekanntes Kartenspiel „{KEY}“."]}
