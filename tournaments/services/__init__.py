"""The only writers of tournament data (HackSoft-style ``<noun>_<verb>`` functions).

Every function takes keyword-only arguments and runs in one transaction; views, API
views, commands and tasks call these and nothing else to change tournament data.
Bad input raises ``games.errors.UserError`` (a field and a translatable message); a
state that forbids the action raises ``games.errors.StateConflict``.
"""

from tournaments.services.actors import Actor  # noqa: F401
from tournaments.services.calls import call_raise, call_update  # noqa: F401
from tournaments.services.confirmations import sheet_confirm  # noqa: F401
from tournaments.services.entries import (  # noqa: F401
    participant_add,
    participant_update,
    tournament_create,
    tournament_update,
)
from tournaments.services.idempotency import idempotent  # noqa: F401
from tournaments.services.lifecycle import tournament_finish, tournament_reopen  # noqa: F401
from tournaments.services.objections import objection_raise, objection_resolve  # noqa: F401
from tournaments.services.rounds import (  # noqa: F401
    round_clock,
    round_close,
    round_draw,
    round_reopen,
    round_seat,
    round_swap,
    round_undo,
)
from tournaments.services.sheets import (  # noqa: F401
    NOT_ASKED,
    SheetWrite,
    deal_correct,
    deal_delete,
    deal_preview,
    deal_record,
    deals_record,
    sheet_submit,
    summary_record,
    table_lock,
    table_lock_by_token,
)
from tournaments.services.shortened import sheet_end  # noqa: F401
