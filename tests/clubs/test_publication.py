"""``clubs.names.public_name``: how a name appears to the public under each choice."""

import pytest

from clubs.names import initial_form, public_name


@pytest.mark.parametrize("name,shown", [
    ("Anna Berger", "Anna B."),
    ("Anna Maria Berger", "Anna Maria B."),
    ("  Anna   Berger ", "Anna B."),
    ("Hans von der Heide", "Hans H."),
    ("Ludwig van Beethoven", "Ludwig B."),
    ("Anna Berger-Lutz", "Anna B."),
    ("Karl-Heinz Müller", "Karl-Heinz M."),
    ("Berger, Anna", "Anna B."),
    ("Berger", "B."),
    ("anna berger", "anna B."),
    ("Özlem Şahin", "Özlem Ş."),
    ("Anna 'Oma' Berger", "Anna 'Oma' B."),
    ("", ""),
])
def test_the_initial_form_keeps_the_given_names_and_shortens_the_surname(name, shown):
    assert initial_form(name) == shown
    assert public_name(name, "initial", 17) == shown


@pytest.mark.parametrize("publication,start_number,shown", [
    ("full", 17, "Anna Berger"),
    ("full", None, "Anna Berger"),
    ("initial", None, "Anna B."),
    ("number", 17, "No. 17"),
    ("number", None, "Player"),
    ("nonsense", 3, "No. 3"),  # an unknown choice is the most private one
])
def test_each_choice(publication, start_number, shown):
    assert public_name("Anna Berger", publication, start_number) == shown


def test_the_words_of_the_number_come_from_the_caller():
    assert public_name("Anna Berger", "number", 17, number_label="Nr. {n}") == "Nr. 17"
    assert public_name("Anna Berger", "number", None,
                       anonymous_label="Spieler/in 42") == "Spieler/in 42"
