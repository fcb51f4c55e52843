"""Writers for clubs and players (the only code that creates or changes them), and the
import of a club's member list (see ``clubs.member_csv`` for the file's format)."""

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

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


# ---------------------------------------------------------------- member lists (CSV)


class MembersInvalid(Exception):
    """A member list with bad lines: nothing was imported. ``lines`` are all the lines,
    the bad ones with their errors."""

    def __init__(self, lines):
        self.lines = lines
        super().__init__(f"{sum(1 for line in lines if line.errors)} bad lines")


def members_preview(*, club: Club, text: str):
    """Read a member list and say per line what an import would do (``new``,
    ``unchanged``: already a member under that number or, without a number, that name)
    or why it cannot (``error``). Nothing is stored."""
    from clubs.member_csv import parse_members

    lines = parse_members(text)
    by_number = dict(club.players.exclude(member_number="")
                     .values_list("member_number", "name"))
    unnumbered = {name.casefold() for name in club.players.filter(member_number="")
                  .values_list("name", flat=True)}
    for line in lines:
        if line.errors:
            continue
        if line.member_number and line.member_number in by_number:
            holder = by_number[line.member_number]
            if holder.casefold() == line.name.casefold():
                line.status = "unchanged"
            else:
                line.error("member_number", _("Member number %(number)s belongs to %(name)s."),
                           number=line.member_number, name=holder)
        elif not line.member_number and line.name.casefold() in unnumbered:
            line.status = "unchanged"
    return lines


@transaction.atomic
def members_import(*, club: Club, text: str, created_by=None) -> list[Player]:
    """Import a member list all or nothing: with any bad line ``MembersInvalid`` is raised
    and nothing is stored; otherwise the new members are created and returned."""
    # Lock the club so two imports of one list never both create its members.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    lines = members_preview(club=club, text=text)
    if any(line.errors for line in lines):
        raise MembersInvalid(lines)
    return [Player.objects.create(name=line.name, club=club, member_number=line.member_number,
                                  created_by=created_by)
            for line in lines if line.status == "new"]
