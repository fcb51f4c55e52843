"""Sign-up: self-registration and the waiting list, check-in and the door, the mails to
registrants and the per-address rate limit of sign-ups (issue 29).

``services/`` (``registrations``, ``door``: the only writers), ``mails`` (the mail outbox
and its texts), ``registration_rate``, ``forms``, ``pages/`` (the public sign-up form and
the cancel page, the console's check-in page, the door poster and desk), ``tasks`` and
``models`` (``Mail``). A registrant's status, place on the waiting list and check-in are
fields of ``tournaments.Participant``: the draw reads them. Tournaments imports nothing of
this app; it hears of a draw through ``tournaments.signals.round_drawn`` and shows the
registration on the player's page through ``tournaments.pages.parts``.
"""
