"""Ranking lists (games.md §10.2): the pure computation (``compute``), the services
(``services``) and the reads (``selectors``)."""
