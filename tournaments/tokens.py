"""Secret tokens: a table's entry token (its tablet, its QR code) and a participant's
personal token (the player's own phone, ``/me/<token>/``).

Both are 192 random bits from ``secrets`` (the API contract asks for at least 128),
URL-safe, so they go into a link or a QR code as they are. Whoever holds one acts for the
table or the player; they are shown to staff only.
"""

import secrets

TOKEN_BYTES = 24


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)
