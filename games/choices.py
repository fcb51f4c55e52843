"""The games a tournament can be played in, as stored in the database.

Kept as a literal list so migrations stay stable; a system check (games.E001) fails
when it and the engine registry disagree.
"""

from django.utils.translation import gettext_lazy as _

GAME_CHOICES = [
    ("skat", _("Skat")),
    ("schafkopf", _("Bavarian Schafkopf")),
    ("baptistenskat", _("Baptistenskat")),
    ("basler", _("Basler (48 cards)")),
    ("labatarde", _("La Bâtarde")),
]
