"""Signals of a tournament's rounds, for the apps above ``tournaments`` to connect to
(those of the standings pipeline are in ``tournaments.recompute.signals``)."""

from django.dispatch import Signal

# Sent inside the drawing transaction once a round's tables and seats are stored;
# arguments ``round`` and ``seated``: ``(table number, participant)`` for every seat, in
# table and seat order, each participant loaded with its ``email``. Sign-up queues the
# "round N is drawn: table T" mails on it; a receiver's error rolls the draw back.
round_drawn = Signal()
