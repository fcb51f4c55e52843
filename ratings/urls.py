"""Pages of the ratings app: a ranking list, its print and its CSV."""

from django.urls import path

from ratings import pages

app_name = "ratings"

urlpatterns = [
    path("<int:rid>/", pages.ranking_list_page, name="ranking-list"),
    path("<int:rid>/print/", pages.ranking_list_print, name="ranking-list-print"),
    path("<int:rid>/list.csv", pages.ranking_list_csv, name="ranking-list-csv"),
]
