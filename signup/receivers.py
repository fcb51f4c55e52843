"""How sign-up hooks into tournaments, which imports nothing of it: a draw queues the
"round N is drawn: table T" mails, a queued mail is handed to its task after the commit,
and the player's own page shows the registration."""

from signup.mails import mail_queue, mail_queued
from signup.pages.registration import registration_part
from signup.tasks import publish_queued
from tournaments.pages.parts import page_part
from tournaments.signals import round_drawn


def _drawn(sender, round, seated, **kwargs) -> None:
    """Inside the draw's transaction: a mail to each seated player who gave an address."""
    for table_number, participant in seated:
        mail_queue(participant, "drawn", round=round.number, table=table_number)


def connect() -> None:
    round_drawn.connect(_drawn, dispatch_uid="signup.drawn")
    mail_queued.connect(publish_queued, dispatch_uid="signup.publish")
    page_part("me", "registration")(registration_part)
