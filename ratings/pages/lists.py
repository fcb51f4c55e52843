"""A ranking list's public pages (games.md §10.2): ``/rankings/<id>/`` (the list, also
linked from its club's page), ``print/`` (A4) and ``list.csv``.

Names are shown as their players chose (``clubs.publication``), full for the club's
admins, as the API does. The list is computed when read from the stored standings
(``ratings.ranking_lists.selectors``): a fixed number of queries however many events
and players.
"""

from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import gettext, pgettext

from clubs.policies import runs_club, sees_full_names_in_club
from games.choices import game_name
from ratings.list_models import RankingList
from ratings.ranking_lists.selectors import ranking_answer
from tournaments.csv_files import csv_download, write_csv


def _context(request, rid: int) -> dict:
    ranking = get_object_or_404(RankingList.objects.select_related("club"), pk=rid)
    answer = ranking_answer(ranking, full=sees_full_names_in_club(request.user, ranking.club))
    names = {t["id"]: t for t in answer["tournaments"]}
    rows = [{**row, "played": len(row["events"]),
             "counted": sum(1 for e in row["events"] if e["counted"]),
             "events": [{**e, "name": names[e["tournament"]]["name"]} for e in row["events"]]}
            for row in answer["results"]]
    return {"ranking": ranking, "answer": answer, "rows": rows,
            "game_name": game_name(ranking.game),
            "admin": runs_club(request.user, ranking.club),
            "points_list": answer["points"] if answer["points"] != "field" else None}


def ranking_list_page(request, rid: int):
    return render(request, "ratings/list.html", _context(request, rid))


def ranking_list_print(request, rid: int):
    return render(request, "ratings/list.html", {**_context(request, rid), "print": True})


def ranking_list_csv(request, rid: int):
    context = _context(request, rid)
    tournaments = context["answer"]["tournaments"]
    header = [gettext("Rank"), gettext("Name"), pgettext("ranking list", "Points"),
              pgettext("ranking list", "Events"),
              gettext("Counted"), *[f"{t['name']} ({t['date'] or ''})" for t in tournaments]]
    out = []
    for row in context["rows"]:
        by_event = {e["tournament"]: e for e in row["events"]}
        cells = []
        for t in tournaments:
            e = by_event.get(t["id"])
            cells.append("" if e is None else
                         f"{e['place']}. / {e['points']}" + ("" if e["counted"] else " *"))
        out.append([row["rank"] if row["rank"] is not None else "", row["name"],
                    row["points"], row["played"], row["counted"], *cells])
    ranking = context["ranking"]
    return csv_download(write_csv(header, out), f"ranking-list-{ranking.pk}.csv")


def club_lists_panel(request, club) -> str:
    """The club page's panel (``tournaments.pages.panels``): the club's ranking lists as
    links (one query), and for the club's admins the link to their console page (shown
    to them even before the first list)."""
    lists = list(RankingList.objects.filter(club=club).order_by("-last", "id"))
    admin = runs_club(request.user, club)
    if not lists and not admin:
        return ""
    return render_to_string("ratings/_club_lists.html",
                            {"lists": lists, "admin": admin, "club": club}, request)
