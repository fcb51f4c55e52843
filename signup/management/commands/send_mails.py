"""``manage.py send_mails``: send the mail outbox's due mails now, as beat's sweep does
(``signup.mails.mails_sweep``) — for a server without Redis and beat (the quick
start, the venue), e.g. from cron, after the mail server was unreachable."""

from django.core.management.base import BaseCommand

from signup.mails import mails_sweep


class Command(BaseCommand):
    help = "Send the mail outbox's due mails now."

    def handle(self, *args, **options):
        self.stdout.write(f"sent {mails_sweep()} mail(s)")
