"""Ratings and ranking lists across events (games.md §10.1, §10.2).

Terms: a *rated result* is one finished sheet (a round's table, a club evening's table)
seen as a multi-player ranking of the players who played it; a *rating* is a player's
skill estimate in one game (``mu`` with its uncertainty ``sigma``), shown as
``round(1000 + 40 × (mu − 3 × sigma))``; a *ranking list* (*Rangliste*) sums placement
points over the published tournaments of a period.
"""
