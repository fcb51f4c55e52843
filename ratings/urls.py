"""The ratings' pages (namespace ``ratings``), included at the site's root: the
leaderboards at ``ratings/<game>/`` (all clubs) and ``ratings/<game>/<club>/``, and a
ranking list at ``rankings/<id>/`` with its print and CSV; the console page of a club's
ranking lists at ``clubs/<slug>/ranking-lists/`` (``ratings.list_console``)."""

from django.urls import include, path

from ratings import list_console, list_pages, pages

app_name = "ratings"

urlpatterns = [
    path("ratings/<str:game>/", pages.leaderboard_page, name="leaderboard"),
    path("ratings/<str:game>/<slug:slug>/", pages.leaderboard_page, name="club-leaderboard"),
    path("rankings/<int:rid>/", include([
        path("", list_pages.ranking_list_page, name="ranking-list"),
        path("print/", list_pages.ranking_list_print, name="ranking-list-print"),
        path("list.csv", list_pages.ranking_list_csv, name="ranking-list-csv"),
    ])),
    # the club's admins (after the club pages of ``clublife.urls``, which claim no such path)
    path("clubs/<slug:slug>/ranking-lists/", list_console.ranking_lists_console,
         name="club-ranking-lists"),
    path("clubs/<slug:slug>/ranking-lists/<int:rid>/delete/",
         list_console.ranking_list_delete_page, name="club-ranking-list-delete"),
]
