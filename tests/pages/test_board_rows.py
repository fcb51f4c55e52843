"""The board's standings rows are built in Python (``board.rows_html``) for speed; they
must be byte for byte what the template's loop made, in both languages, overall and per
round, with and without won/lost figures, for withdrawn players, hyphenated and
HTML-special names and every publication choice."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from clubs.models import Player
from tournaments.models import Participant, Tournament
from tournaments.pages.board import rows_html
from tournaments.selectors import StandingEntry

# the loop the template had before the rows were built in Python: the oracle
TEMPLATE_LOOP = Template(
    '{% load i18n short_names publication figures %}'
    '{% for row in standings.rows %}\n'
    '    <tr{% if row.participant.withdrawn %}'
    ' class="withdrawn"{% endif %}><td class="num">{{ row.rank }}</td><td><a href="'
    "{% url 'pages:board-player' tournament.slug row.participant_id %}\">"
    '{{ row.participant|public_name|keep_words }}</a>{% if row.participant.withdrawn %}'
    ' <span class="badge withdrawn-badge">{% translate "withdrawn" %}</span>{% endif %}'
    '{% if "won" in standings.figures %}<span class="figs-under"><span class="w">'
    '{% translate "won" %} {{ row.figures.won|num }}</span> · <span class="w">'
    '{% translate "lost" %} {{ row.figures.lost|num }}</span></span>{% endif %}</td>'
    '<td class="num score">{{ row.score|num }}</td>{% if "won" in standings.figures %}'
    '<td class="num fig-col">{{ row.figures.won|num }}</td><td class="num fig-col">'
    '{{ row.figures.lost|num }}</td>{% endif %}{% if not standings.round %}'
    '<td class="num rounds-col">{{ row.rounds|length }}</td>{% endif %}</tr>\n'
    '  {% endfor %}')

NAMES = ["Anna Berger", "Hans-Peter Oberhuber-Schwarzenbach", "<b>Eve</b> & \"Co\"",
         "Jürgen O'Neill", "Seeger/Fabian", ""]


def _rows(with_figures: bool, score) -> list[StandingEntry]:
    rows = []
    publications = list(Player.Publication.values)
    for i, name in enumerate(NAMES * 3):  # each name under each publication choice
        player = Player(pk=100 + i, name=name,
                        publication=publications[i // len(NAMES)])
        participant = Participant(pk=200 + i, player=player, start_number=i + 1,
                                  withdrawn=i % 4 == 1)
        row = {"rank": i // 2 + 1, "score": score(i), "rounds": list(range(i % 3 + 1)),
               "participant": participant.pk}
        if with_figures:
            row.update(won=i, lost=12 - i)
        rows.append(StandingEntry(row, participant))
    return rows


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("round_number", [0, 2])
@pytest.mark.parametrize("with_figures", [True, False])
@pytest.mark.parametrize("score", [lambda i: 1000 - 137 * i,
                                   lambda i: Decimal("12.5") * (i - 9)],
                         ids=["int", "decimal"])
def test_rows_are_what_the_template_made(language, round_number, with_figures, score):
    tournament = Tournament(slug="grosses-turnier")
    rows = _rows(with_figures, score)
    figures = ["won", "lost"] if with_figures else []
    with translation.override(language):
        expected = TEMPLATE_LOOP.render(Context({"tournament": tournament, "standings": {
            "rows": rows, "figures": figures, "round": round_number}}))
        built = rows_html(tournament, rows, figures, round_number)
    assert built == expected
    number = "Nr. 15" if language == "de" else "No. 15"
    assert "<b>" not in built and "&lt;b&gt;Eve&lt;/b&gt;" in built and number in built


def test_a_negative_score_reads_as_minus_never_as_a_hyphen():
    tournament = Tournament(slug="grosses-turnier")
    rows = _rows(True, lambda i: -1234 if i == 0 else Decimal("-7.5"))
    with translation.override("de"):
        built = rows_html(tournament, rows, ["won", "lost"], 0)
    assert '<td class="num score">\u22121234</td>' in built
    assert '<td class="num score">\u22127,5</td>' in built
    assert ">-" not in built and "-1234" not in built


def test_the_team_and_club_rankings_print_a_negative_score_with_the_minus_sign():
    from django.template.loader import render_to_string

    teams = [{"team": 1, "rank": 1, "name": "Kreuz", "score": -48, "complete": True,
              "members": [{"name": "Anna", "score": -120, "withdrawn": False}]}]
    clubs = [{"club": 1, "rank": 1, "name": "Grün", "score": Decimal("-2.5"),
              "players": [{"name": "Hans", "score": -3}]}]
    with translation.override("de"):
        html = render_to_string("board/_teams.html", {"teams": teams})
        html += render_to_string("board/_clubs.html", {"clubs": clubs, "club_k": 1})
    assert "\u221248</td>" in html and "Anna (\u2212120)" in html
    assert "\u22122,5</td>" in html and "Hans (\u22123)" in html
    assert "-48" not in html and "(-" not in html
