"""Who may see and direct a tournament: the one answer to each question, used by the API's
permission classes and the pages' decorator alike."""

from clubs.policies import is_staff, runs_club


def directs(user, tournament) -> bool:
    """Staff who run the tournament: its directors, its club's admins, superusers."""
    if not is_staff(user):
        return False
    if user.is_superuser or tournament.directors.filter(pk=user.pk).exists():
        return True
    return runs_club(user, tournament.club)


def directs_table(user, table) -> bool:
    """Who directs a table's tournament (the table's own token is the API's business)."""
    return directs(user, table.round.tournament)


def can_see_tournament(user, tournament) -> bool:
    """Everyone sees a published tournament; an unpublished one only those who direct it."""
    return tournament.published or directs(user, tournament)
