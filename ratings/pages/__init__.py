"""The ratings' pages, one module per area: the leaderboards and the rating panels
(``leaderboard``), the ranking lists (``lists``) and their console (``list_console``),
and the statistics panel of a player (``insight``)."""
