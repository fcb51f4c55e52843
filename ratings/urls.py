"""The ratings' pages (namespace ``ratings``), included at the site's root: the
leaderboards at ``ratings/<game>/`` (all clubs) and ``ratings/<game>/<club>/``, and a
ranking list at ``rankings/<id>/`` with its print and CSV; the console page of a club's
ranking lists at ``clubs/<slug>/ranking-lists/`` (``ratings.pages.list_console``)."""

from django.urls import include, path

from ratings.pages import leaderboard, list_console, lists

app_name = "ratings"

urlpatterns = [
    path("ratings/<str:game>/", leaderboard.leaderboard_page, name="leaderboard"),
    path("ratings/<str:game>/<slug:slug>/", leaderboard.leaderboard_page, name="club-leaderboard"),
    path("rankings/<int:rid>/", include([
        path("", lists.ranking_list_page, name="ranking-list"),
        path("print/", lists.ranking_list_print, name="ranking-list-print"),
        path("list.csv", lists.ranking_list_csv, name="ranking-list-csv"),
    ])),
    # the club's admins (after the club pages of ``clublife.urls``, which claim no such path)
    path("clubs/<slug:slug>/ranking-lists/", list_console.ranking_lists_console,
         name="club-ranking-lists"),
    path("clubs/<slug:slug>/ranking-lists/<int:rid>/delete/",
         list_console.ranking_list_delete_page, name="club-ranking-list-delete"),
]
