"""Server-rendered pages: the tablet score sheet, the director's console and the public
board. Views read through ``tournaments.selectors`` and write only through services (the
tablet writes through the API, so offline retries share the API's idempotency)."""
