"""The player's own history on their phone, at ``/me/<personal token>/history/`` (route
``pages:me-history``): their events in the club of the token's event, newest first —
date, name, place of how many, points — and their places in the club's season rankings;
the same reading as the API's ``/me/history/`` (``clublife.selectors.player_history``).

It lives in club life, not with the tournament pages, because the seasons are club life's
(``tournaments`` may not import ``clublife``); ``config.urls`` puts it into the ``pages``
namespace beside the player's page ``/me/<token>/``. An unknown, expired or erased token
is 404, as in the API.
"""

from __future__ import annotations

import datetime

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import cache_control

from clublife.selectors import player_history
from games.choices import game_name
from tournaments.player_view import participant_by_token


@cache_control(private=True, no_cache=True)  # theirs alone, across tournaments
def me_history_page(request, token: str):
    participant = participant_by_token(token)
    if participant is None:
        raise Http404()
    history = player_history(participant)
    events = [{**event, "day": datetime.date.fromisoformat(event["date"]) if event["date"]
               else None, "game_name": game_name(event["game"])}
              for event in history["events"]]
    seasons = [{**season, "game_name": game_name(season["game"])}
               for season in history["seasons"]]
    return render(request, "clublife/me_history.html", {
        "participant": participant, "club": participant.tournament.club, "token": token,
        "events": events, "seasons": seasons,
        "several_games": len({e["game"] for e in events} | {s["game"] for s in seasons}) > 1,
    })
