"""Page routes: the tablet sheet, the player's own page, the director's console and the
public board."""

from django.urls import path

from tournaments.pages import (
    board,
    categories,
    console,
    me,
    offline,
    paper_entry,
    paper_grid,
    player_cards,
    sheet,
    teams,
)

app_name = "pages"

urlpatterns = [
    path("sw.js", offline.service_worker, name="service-worker"),
    path("t/<str:token>/", sheet.sheet_page, name="sheet"),
    path("t/<str:token>/sheet/", sheet.sheet_list, name="sheet-list"),
    path("me/<str:token>/", me.me_page, name="me"),
    path("me/<str:token>/live/", me.me_live, name="me-live"),
    path("me/<str:token>/ranks/", me.me_ranks, name="me-ranks"),
    path("me/<str:token>/card/", me.me_card, name="me-card"),
    path("me/<str:token>/changes/", me.me_changes, name="me-changes"),
    path("me/<str:token>/sheet/", me.me_sheet, name="me-sheet"),
    path("me/<str:token>/sheet/list/", me.me_sheet_list, name="me-sheet-list"),
    path("console/table/<int:table_id>/", sheet.staff_sheet_page, name="staff-sheet"),
    path("console/table/<int:table_id>/sheet/", sheet.staff_sheet_list, name="staff-sheet-list"),
    path("console/table/<int:table_id>/summary/", paper_entry.summary_page, name="summary"),
    path("console/table/<int:table_id>/paper/", paper_grid.paper_grid_page, name="paper-grid"),
    path("p/<slug:slug>/", board.board_page, name="board"),
    path("p/<slug:slug>/standings/", board.board_standings, name="board-standings"),
    path("p/<slug:slug>/print/", board.print_page, name="board-print"),
    path("p/<slug:slug>/ranks/<int:page>/", me.ranks_part, name="ranks"),
    path("p/<slug:slug>/tables/<int:table_id>/card/", me.card_part, name="card"),
    path("p/<slug:slug>/player/<int:participant_id>/", board.player_page, name="board-player"),
]

console_urlpatterns = (console.urlpatterns + teams.urlpatterns
                       + player_cards.urlpatterns + categories.urlpatterns)
