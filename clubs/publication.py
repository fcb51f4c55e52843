"""The publication choice at the edge: ``clubs.names.public_name`` with its words
translated, for a player as pages, CSV files and API answers show him to the public.

``shown_name(name, publication, start_number, full=…)`` is what every public surface
calls with the name and choice it fetched together (no query of its own); ``full`` is the
viewer's right to the full name (``tournaments.policies.sees_full_names``) — directors
always see the full name.

"number" without a tournament (a season list, a profile): "Spieler/in 42" — the player's
id, which the public answers carry anyway, never the member number.
"""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.names import public_name


def shown_name(name: str, publication: str, start_number: int | None = None, *,
               full: bool = False, player_id: int | None = None) -> str:
    if full:
        return name
    anonymous = (pgettext("anonymous player", "Player %(id)s") % {"id": player_id}
                 if player_id is not None else pgettext("anonymous player", "Player"))
    return public_name(name, publication, start_number,
                       number_label=_("No. %(n)s") % {"n": "{n}"}, anonymous_label=anonymous)


def shown_player(player, start_number: int | None = None, *, full: bool = False) -> str:
    """``shown_name`` of a loaded ``Player``."""
    return shown_name(player.name, player.publication, start_number, full=full,
                      player_id=player.pk)
