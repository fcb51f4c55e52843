"""Signals of the recompute pipeline, for the apps above ``tournaments`` to connect to."""

from django.dispatch import Signal

# Sent inside the recompute's transaction, after a tournament's standings are stored;
# argument ``tournament``. A receiver's error fails (and rolls back) the recompute.
standings_recomputed = Signal()

# Sent inside the changing transaction when a tournament is published or unpublished;
# argument ``tournament``. What counts only public tournaments (a club's season) follows.
publication_changed = Signal()

# Sent inside the writing transaction with every recorded sheet change (``outbox.
# sheet_changed``) and when a tournament's date moves; arguments ``tournament_id``,
# ``round_number`` (None: any round), ``table`` (the changed table when one is named and
# loaded, else None; its ``submitted`` tells whether the sheet is final). The floors above
# that follow results over many events (ratings) connect to it; it must stay cheap.
results_changed = Signal()
