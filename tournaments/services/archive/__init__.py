"""A tournament as a JSON archive (export and import), and its standings as CSV.

The *archive* holds the whole tournament without database ids: the tournament with its
rules, its clubs (by slug), its participants with their players (a participant is named by
its start number everywhere else), the rounds with their tables, seats, deals and sheet
events, each table's Skat summary, confirmations, objections (with their resolutions) and
calls for the director, and the standings (for readers; an import recomputes them). Users
appear by username. Entry tokens and personal tokens are secrets and stay out; an import
draws new ones (a player card printed for the original does not open the copy).
Importing an archive into an empty database and exporting it again gives the same
archive; an archive of version 1 (before the player's phone) is read still.

Import rules: a club is reused when one with the same slug and name exists, else created;
a player is reused when his club was reused and he has a member number there, else
created; a user named in the history is linked by username, or created as an inactive
account without a password so the history keeps its author. Everything is checked before
anything is stored — deals and summaries by the game's engine, the seats' totals are
recomputed — and a bad archive raises ``UserError`` naming the offending path
(``rounds.0.tables.2.deals.5.record.matadors``).
"""

from tournaments.services.archive.export import FORMAT, VERSION, tournament_export  # noqa: F401
from tournaments.services.archive.importing import (  # noqa: F401
    archive_clubs_written,
    tournament_import,
)
from tournaments.services.archive.reading import archive_read  # noqa: F401
from tournaments.services.archive.standings_file import standings_csv  # noqa: F401
