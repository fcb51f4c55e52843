"""Standings as pure functions over plain rows (no Django, no engines).

Terms: a *row* is one participant's figures in one round — ``{"participant", "round",
"score", ...game figures}`` — as the game's engine totals a sheet. *Overall* standings sum
each participant's rows over rounds. The game's ``rank_key`` (from its engine) orders rows
best first; rows with equal keys share a rank ("1, 2, 2, 4").
"""

from tournaments.standings.ranking import aggregate, rank  # noqa: F401
