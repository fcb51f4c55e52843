"""Writers for clubs and players (the only code that creates or changes them)."""

from django.db import transaction
from django.utils.text import slugify

from clubs.models import Club, Player


def unique_slug(model, text: str, *, max_length: int = 120) -> str:
    """A slug for ``text`` not yet used by ``model`` (``name``, ``name-2``, …)."""
    base = (slugify(text) or "x")[:max_length]
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(*, name: str, city: str = "", admin=None) -> Club:
    club = Club.objects.create(name=name, city=city, slug=unique_slug(Club, name))
    if admin is not None:
        club.admins.add(admin)
    return club


@transaction.atomic
def player_create(*, name: str, club: Club | None = None, member_number: str = "",
                  created_by=None) -> Player:
    return Player.objects.create(
        name=name, club=club, member_number=member_number, created_by=created_by
    )


@transaction.atomic
def club_update(*, club: Club, **fields) -> Club:
    for name, value in fields.items():
        setattr(club, name, value)
    club.save(update_fields=list(fields))
    return club


@transaction.atomic
def player_update(*, player: Player, **fields) -> Player:
    for name, value in fields.items():
        setattr(player, name, value)
    player.save(update_fields=list(fields))
    return player
