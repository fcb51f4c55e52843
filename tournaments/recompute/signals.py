"""Signals of the recompute pipeline, for the apps above ``tournaments`` to connect to."""

from django.dispatch import Signal

# Sent inside the recompute's transaction, after a tournament's standings are stored;
# argument ``tournament``. A receiver's error fails (and rolls back) the recompute.
standings_recomputed = Signal()

# Sent inside the changing transaction when a tournament is published or unpublished;
# argument ``tournament``. What counts only public tournaments (a club's season) follows.
publication_changed = Signal()
