"""Who may run a league and send a team's line-up: the one answer to each question.

A league is *run* by its directors (the staff user who created it and those added), the
admins of its club (if it names one) and superusers; they change everything of the league
(divisions, teams, matchdays, series, results). Everyone reads a league. A team's
*captain* sends its line-ups with the team's captain token; staff who run the league may
too.
"""

from clubs.policies import is_staff, runs_club


def runs_league(user, league) -> bool:
    if not is_staff(user):
        return False
    if user.is_superuser or league.directors.filter(pk=user.pk).exists():
        return True
    return league.club_id is not None and runs_club(user, league.club)


def captains(team, token_team) -> bool:
    """Whether the captain token's team (``token_team``) is ``team``."""
    return token_team is not None and token_team.pk == team.pk
