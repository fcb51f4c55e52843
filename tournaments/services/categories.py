"""Categories and the club ranking's K of a tournament (games.md §10.3, §10.4).

A tournament's *categories* are up to ``MAX_CATEGORIES`` distinct labels of 1 to
``CATEGORY_MAX_LENGTH`` characters (surrounding spaces dropped); a participant belongs to
any of them. Renaming or dropping a label takes it from the participants too. Changing a
participant's categories is allowed in a finished tournament as well: it changes no
result, only which lists a player appears in.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop as _

from games.errors import user_error
from tournaments.freshness import bump
from tournaments.models import (
    CATEGORY_MAX_LENGTH,
    MAX_CATEGORIES,
    MAX_CLUB_RANKING_K,
    MIN_CLUB_RANKING_K,
    Participant,
    Tournament,
)


def check_categories(value: Any) -> list[str]:
    """The labels cleaned (spaces at the ends dropped), or ``UserError`` on
    ``categories``: not a list of texts, too many, blank, too long or twice."""
    if not isinstance(value, list):
        raise user_error("categories", _("Give a list of category labels."))
    if len(value) > MAX_CATEGORIES:
        raise user_error("categories", _("At most %(max)s categories."), max=MAX_CATEGORIES)
    labels: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise user_error("categories", _("Give a list of category labels."))
        label = item.strip()
        if not 1 <= len(label) <= CATEGORY_MAX_LENGTH:
            raise user_error("categories", _("A category label has 1 to %(max)s characters."),
                             max=CATEGORY_MAX_LENGTH)
        if label in labels:
            raise user_error("categories", _("The category “%(label)s” is given twice."),
                             label=label)
        labels.append(label)
    return labels


def check_club_ranking_k(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) \
            or not MIN_CLUB_RANKING_K <= value <= MAX_CLUB_RANKING_K:
        raise user_error("club_ranking_k", _("Must be a whole number from %(min)s to %(max)s, "
                                             "or null (no club ranking)."),
                         min=MIN_CLUB_RANKING_K, max=MAX_CLUB_RANKING_K)
    return value


def member_categories(tournament: Tournament, value: Any) -> list[str]:
    """A participant's categories checked against the tournament's, in the tournament's
    order; ``UserError`` on ``categories`` naming an unknown one."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise user_error("categories", _("Give a list of category labels."))
    known = list(tournament.categories or [])
    for label in value:
        if label not in known:
            raise user_error("categories", _("Unknown category “%(label)s”; the tournament "
                                             "has: %(known)s."),
                             label=label[:CATEGORY_MAX_LENGTH], known=", ".join(known) or "–")
    return [label for label in known if label in value]


def prune_member_categories(tournament: Tournament, labels: list[str]) -> None:
    """Take labels the tournament no longer has from its participants."""
    changed = []
    for participant in (Participant.objects.filter(tournament=tournament)
                        .exclude(categories=[]).only("pk", "categories")):
        kept = [label for label in participant.categories if label in labels]
        if kept != participant.categories:
            participant.categories = kept
            changed.append(participant)
    if changed:
        Participant.objects.bulk_update(changed, ["categories"])


@transaction.atomic
def participant_categories_set(*, participant: Participant, categories: Any) -> Participant:
    """Set the categories a participant belongs to (``UserError`` on ``categories``)."""
    tournament = Tournament.objects.select_for_update().get(pk=participant.tournament_id)
    participant.categories = member_categories(tournament, categories)
    participant.save(update_fields=["categories"])  # its signal bumps the versions
    return participant


@transaction.atomic
def categories_assign(*, tournament: Tournament, members: dict[int, Any]) -> int:
    """Set the categories of several participants at once (the console's tick list):
    ``members`` maps participant ids to their labels. ``UserError`` on ``categories``
    for an unknown label, nothing stored; returns how many participants changed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    wanted = {pid: member_categories(tournament, labels) for pid, labels in members.items()}
    changed = []
    for participant in Participant.objects.filter(tournament=tournament, pk__in=list(wanted)):
        if participant.categories != wanted[participant.pk]:
            participant.categories = wanted[participant.pk]
            changed.append(participant)
    if changed:
        Participant.objects.bulk_update(changed, ["categories"])
        # bulk_update sends no save signal: the pages that show the categories are
        # dropped by the tournament's (after the commit)
        bump(tournament.pk)
    return len(changed)
