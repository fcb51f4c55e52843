"""Leagues and matchdays (games.md §9): seasons, divisions, teams and rosters, matchdays
with their groups and line-ups, league points and the league table. A matchday group is
played as a tournament of the app; the league reads its sheets and never re-enters them.
"""
