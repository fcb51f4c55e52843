"""The leagues' pages, one module per area: the public tables, matchdays and teams
(``public``) and the consoles of those who run a league (``console``)."""
