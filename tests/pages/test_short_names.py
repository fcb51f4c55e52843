"""Short names for narrow column heads, and words kept whole in table cells."""

from tournaments.templatetags.short_names import keep_words, short_names


def test_short_names_give_first_name_and_initial_and_unique_initials():
    heads = short_names([{"seat": 1, "name": "Maximiliane Oberhuber-Schwarzenbach"},
                         {"seat": 2, "name": "Ingrid Braun"},
                         {"seat": 3, "name": "Max Oswald"}, {"seat": 4, "name": "Cher"}])
    assert [h["short"] for h in heads] == ["Maximiliane O.", "Ingrid B.", "Max O.", "Cher"]
    assert [h["initials"] for h in heads] == ["MO1", "IB", "MO3", "CH"]


def test_keep_words_wraps_only_words_a_browser_could_break_and_escapes():
    assert keep_words("Ingrid Braun") == "Ingrid Braun"
    assert keep_words("Wertung (Seeger-Fabian)") == \
        'Wertung <span class="w">(Seeger-Fabian)</span>'
    assert keep_words("<b>A-B</b>") == '<span class="w">&lt;b&gt;A-B&lt;/b&gt;</span>'


def test_a_number_in_a_name_stays_whole_in_the_initials():
    heads = short_names([{"seat": 1, "name": "Spieler 10"}, {"seat": 2, "name": "Spieler 11"}])
    assert [h["initials"] for h in heads] == ["S10", "S11"]
