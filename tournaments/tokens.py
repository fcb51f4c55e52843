"""Secret tokens: a table's entry token (its tablet, its QR code) and a participant's
personal token (the player's own phone, ``/me/<token>/``).

Both are 192 random bits from ``secrets`` (the API contract asks for at least 128),
URL-safe, so they go into a link or a QR code as they are. Whoever holds one acts for the
table or the player; they are shown to staff only.
"""

import secrets

TOKEN_BYTES = 24
# a stored token's most characters (the models' ``max_length``)
MAX_LENGTH = 64


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def storable(token: str) -> bool:
    """Whether ``token``, as a request gives it, could be a stored token: at most
    ``MAX_LENGTH`` characters and no NUL (PostgreSQL holds no text with one, and refuses
    to compare with it). Anything else opens nothing and is not looked up."""
    return len(token) <= MAX_LENGTH and "\x00" not in token
