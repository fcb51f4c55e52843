"""Placeholder, filled below."""


def rating_panel(request, player, *, own=False) -> str:
    return ""
