"""Pure-Python scoring engines, one module per game; importing this package registers them.

Every module beside ``base`` is a game engine that registers itself with
``@register``. Nothing in this package imports Django (a test asserts it).
"""

import importlib
import pkgutil

from games.engines.base import (  # noqa: F401
    DealContext,
    Engine,
    EngineInternalError,
    EngineUserError,
    FieldError,
    LeaguePlay,
    Part,
    ScoredDeal,
    SheetResult,
    all_engines,
    get_engine,
    most_seats,
    register,
    unregister,
)

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")
