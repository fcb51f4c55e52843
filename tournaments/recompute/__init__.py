"""The recompute pipeline of a tournament's standings: the outbox a change writes, the
coalescing publisher and the thin Celery tasks.

``signals.standings_recomputed`` tells the floors above (club life) that a tournament's
standings were just stored, so they can follow without being imported from here.
"""
