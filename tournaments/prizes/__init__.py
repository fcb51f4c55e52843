"""Entry fees, prize lists, payouts and the cash report as pure functions (no Django).

``payout``: the prize list, its validation and who gets what (games.md §6).
``cash``: fees in, table money in, prizes out and the balance, per tournament and season.
"""
