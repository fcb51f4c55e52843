"""QR codes on paper: the table cards, the paper sheets' heads and the player cards all
draw theirs here, so every printed code is made the same way.

The code is an inline SVG with a viewBox and no fixed size: the stylesheet sizes it (a
table card's 9 rem, a paper sheet's 19 mm, a player card's 33 mm) and it scales instead
of being cut off. Error correction level M (15 %) survives a crease or a smudge on a card
that travels in a wallet.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    # segno writes only its own elements and the escaped URL's modules: safe to inline
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True))
