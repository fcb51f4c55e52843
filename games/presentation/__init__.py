"""How each game shows itself to people, one module per game beside its engine, registered
like the engines: the tablet form's layout, the blank paper sheet's columns and foot, the
paper list's foot, the deal in words, the figures a summary entry takes.

Pages, templates and scripts outside ``games`` never name a game: they ask
``presentation_of(key)``. This package may import ``games.engines`` and Django's
translation utilities; the engines never import it. Importing the package registers
every module beside ``base``, ``grid`` and ``labels``.
"""

import importlib
import pkgutil

from games.presentation.base import (  # noqa: F401
    Presentation,
    all_presentations,
    presentation_of,
    register,
)

_HELPERS = {"base", "grid", "labels"}

for _module in pkgutil.iter_modules(__path__):
    if _module.name not in _HELPERS:
        importlib.import_module(f"{__name__}.{_module.name}")
