"""The archive: a tournament as the open event document (export and import), and its
standings as CSV. ``event_schema`` (the JSON Schema and the check against it),
``export``, ``reading`` (the checks, against the declarative shapes of ``spec``),
``importing`` and ``standings_file``; no models.

The *event document* (``stichliste-event``, its JSON Schema in ``event.schema.json``,
served at ``GET /api/v1/formats/event/``) is the one format for a whole tournament: what
anyone may read of a published one (``GET …/event/``, players named as they chose) and the
directors' archive (``GET …/archive/``, the same format with full names and each table's
history, confirmations, objections and calls). It holds no database ids: the tournament
with its rules, its clubs (by slug), its participants with their players (a participant is
named by its start number everywhere else), the rounds with their tables, seats, every
deal as its game's record (games.md) plus its number, each table's Skat summary, whether
the sheet was shortened, each table's history head, teams, prizes and the standings (for
readers; an import recomputes them). Users appear by username. Entry tokens and personal
tokens are secrets and stay out; an import draws new ones (a player card printed for the
original does not open the copy). Importing a document into an empty database and
exporting it again gives the same document, but for the history heads (the chain is
sealed anew on import).

Import rules: a club is reused when one with the same slug and name exists, else created;
a player is reused when his club was reused and he has a member number there, else
created; a user named in the history is linked by username, or created as an inactive
account without a password so the history keeps its author. Everything is checked before
anything is stored — deals and summaries by the game's engine, the seats' totals are
recomputed — and a bad archive raises ``UserError`` naming the offending path
(``rounds[0].tables[2].deals[5].matadors``).
"""
