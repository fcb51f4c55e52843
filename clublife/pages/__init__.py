"""Club life's pages, one module per area: the club itself (``club``), its evenings,
seasons and table money (``evenings``), its calendar, a player's page and merge
(``players``), a person's data (``privacy``), a tournament's downloads and table money
(``tournaments``), the cash reports (``cash``) and the player's own history
(``me_history``)."""
