"""The one model choice of the forms (``tournaments.forms.ClubChoiceField`` and its multiple
form): an id no row can have is an unknown choice on SQLite and PostgreSQL alike, never a
query the database refuses; every form that chooses a club uses them."""

import re
from pathlib import Path

import pytest
from django import forms

from clubs.models import Club
from tournaments.forms import ClubChoiceField, ClubsChoiceField

pytestmark = pytest.mark.django_db

NO_ROW = ["2" * 30, str(2**63), "-1", "0", "x", "²", "٣", " ", "1.5"]


@pytest.fixture
def club_row():
    return Club.objects.create(name="Herz Dame", slug="herz-dame")


@pytest.mark.parametrize("raw", NO_ROW)
def test_one_club_refuses_an_id_no_row_can_have(club_row, raw):
    field = ClubChoiceField(queryset=Club.objects.all())
    with pytest.raises(forms.ValidationError) as refused:
        field.clean(raw)
    assert refused.value.code == "invalid_choice"


@pytest.mark.parametrize("raw", NO_ROW)
def test_several_clubs_refuse_an_id_no_row_can_have(club_row, raw):
    field = ClubsChoiceField(queryset=Club.objects.all())
    with pytest.raises(forms.ValidationError) as refused:
        field.clean([str(club_row.pk), raw])
    assert refused.value.code == "invalid_choice"


def test_a_real_id_and_an_unknown_one(club_row):
    one = ClubChoiceField(queryset=Club.objects.all(), required=False)
    assert one.clean(str(club_row.pk)) == club_row
    assert one.clean("") is None
    with pytest.raises(forms.ValidationError):
        one.clean(str(club_row.pk + 1000))
    several = ClubsChoiceField(queryset=Club.objects.all())
    assert list(several.clean([str(club_row.pk)])) == [club_row]


def test_no_form_chooses_a_model_another_way():
    root = Path(__file__).resolve().parents[2]
    direct = re.compile(r"\bModel(Multiple)?ChoiceField\(")
    offenders = [str(path.relative_to(root)) for folder in
                 ("api", "clubs", "clublife", "config", "games", "leagues", "ratings",
                  "tournaments")
                 for path in (root / folder).rglob("*.py")
                 if path.name != "forms.py" or path.parent.name != "tournaments"
                 if direct.search(path.read_text(encoding="utf-8"))]
    assert offenders == []
