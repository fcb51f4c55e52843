"""The one error vocabulary (``games.errors``): every room's errors are its kinds, they
keep msgid and params until the edge renders them, and they survive pickling."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from clubs.member_csv import FileProblem, parse_members
from games.engines import EngineInternalError, EngineUserError
from games.errors import FieldError, InternalError, StateConflict, UserError, user_error
from tournaments.errors import StateConflict as TournamentStateConflict
from tournaments.seating import SeatingError, SeatingInternalError, composition

ROOT = Path(__file__).resolve().parents[2]
GERMAN = {"Must be at least %(min)s.": "Muss mindestens %(min)s sein.",
          "Round %(number)s is still being played.": "Runde %(number)s läuft noch."}


def test_the_vocabulary_imports_no_django():
    script = ("import sys, games.errors\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in "
              "('django', 'rest_framework', 'tournaments', 'clubs')))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, text=True,
                         capture_output=True).stdout
    assert out.strip() == "[]"


def test_every_room_raises_the_same_kinds():
    assert EngineUserError is UserError and EngineInternalError is InternalError
    assert TournamentStateConflict is StateConflict
    assert issubclass(SeatingError, UserError) and issubclass(FileProblem, UserError)
    assert issubclass(SeatingInternalError, InternalError)


def test_a_user_error_keeps_msgid_and_params_until_it_is_rendered():
    error = user_error("bids.2", "Must be at least %(min)s.", min=18)
    assert (error.field, error.message, error.params) == ("bids.2", "Must be at least %(min)s.",
                                                          {"min": 18})
    assert error.render() == "Must be at least 18."
    assert error.render(GERMAN.get) == "Muss mindestens 18 sein."
    assert str(error) == "bids.2: Must be at least 18."


def test_a_user_error_without_errors_is_a_bug():
    with pytest.raises(InternalError):
        UserError([])


def test_a_state_conflict_is_rendered_in_the_readers_language():
    conflict = StateConflict("Round %(number)s is still being played.", number=3)
    assert conflict.render() == "Round 3 is still being played."
    assert conflict.render(GERMAN.get) == "Runde 3 läuft noch."


@pytest.mark.parametrize("error", [
    UserError([FieldError("deals", "Must be a list."),
               FieldError("matadors", "Must be at least %(min)s.", {"min": 1}, deal=2,
                          number=3)]),
    StateConflict("Round %(number)s is still being played.", number=3),
])
def test_errors_survive_pickling_with_fields_and_params(error):
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)
    if isinstance(error, UserError):
        assert copy.errors == error.errors
    else:
        assert (copy.message, copy.params) == (error.message, error.params)


def test_a_seating_error_is_a_user_error_on_its_field():
    with pytest.raises(UserError) as caught:
        composition(5, (3, 4), 4)
    assert isinstance(caught.value, SeatingError)
    assert [e.field for e in caught.value.errors] == ["players"]
    assert caught.value.params == {"count": 5, "sizes": "3, 4"}


def test_a_member_file_that_cannot_be_read_is_a_user_error_on_csv():
    with pytest.raises(UserError) as caught:
        parse_members("a\x00b")
    assert isinstance(caught.value, FileProblem)
    assert [e.field for e in caught.value.errors] == ["csv"]
    assert caught.value.render()
    copy = pickle.loads(pickle.dumps(caught.value))
    assert copy.field == "csv" and copy.render() == caught.value.render()
