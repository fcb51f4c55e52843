"""Prizes and cash: a tournament's entry fee and its history, the prize list, the lot
among ties at prize places, the payout list and the console's prize page.

``payout``: the prize list, its validation and who gets what (games.md §6), pure Python.
``cash``: fees in, table money in, prizes out and the balance, per tournament and season,
pure Python. ``ties``: what the prize page says about ties at prize places.
``models``, ``services`` (the only writers), ``selectors`` (the payout answer) and
``pages`` are the Django side; the club's cash pages, which add table money, are
``clublife``'s.
"""
