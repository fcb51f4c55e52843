"""What happens after a sheet changes: the standings must be recomputed."""


def sheet_changed(tournament_id: int) -> None:
    """Called inside the writing transaction; the standings task hooks in here."""
