"""``{{ participant|public_name }}``, ``{{ player|public_name }}``: a name as the public
sees it under the player's publication choice (``clubs.publication``); ``{{ x|public_name:
full }}`` shows the full name where ``full`` (the viewer's ``sees_full_names``) is true.

The player (and the participant's start number) must be loaded with the row: the filter
makes no query."""

from django import template

from clubs.models import Player
from clubs.publication import shown_player

register = template.Library()


@register.filter
def public_name(person, full=False) -> str:
    if isinstance(person, Player):
        return shown_player(person, full=bool(full))
    return shown_player(person.player, person.start_number, full=bool(full))
