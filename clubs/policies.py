"""Who may do what with clubs and players: the one answer to each question.

*Staff* are users with ``is_staff``; a staff user *runs* a club when he is one of its
admins. Superusers run everything.
"""


def is_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def runs_club(user, club) -> bool:
    """Staff among the club's admins, and superusers; nobody runs "no club"."""
    if not is_staff(user) or club is None:
        return False
    return user.is_superuser or club.admins.filter(pk=user.pk).exists()


def may_change_player(user, player) -> bool:
    """Staff who are superusers, the player's creator or his club's admins.

    The stricter of the two answers the code used to give: directing a tournament a
    guest played in no longer lets a director change (or merge) that guest; whoever
    entered the guest still may.
    """
    if not is_staff(user):
        return False
    return (user.is_superuser or player.created_by_id == user.pk
            or runs_club(user, player.club))


def sees_full_names_in_club(user, club) -> bool:
    """Whether ``user`` sees full names in a club's lists (season rankings, club
    evenings, player profiles): those who run the club. Everyone else sees each name as
    its player chose (``clubs.publication.shown_name``)."""
    return runs_club(user, club)

