"""Writers for clubs and players (the only code that creates or changes them), a club's
defaults (game, house rules, table money, season ranking) and the import of a club's
member list (see ``clubs.member_csv`` for the file's format)."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from clubs.member_csv import parse_members
from clubs.models import Club, Player
from clubs.names import loose_key, name_key
from clubs.uniques import create_with_slug, unique_errors
from games.choices import check_game
from games.engines import get_engine
from games.engines.base import is_int
from games.errors import FieldError, InternalError, UserError, user_error

MAX_FEE_CENTS = 100_000  # 1,000 € per lost game is surely a typo


@transaction.atomic
def club_create(*, name: str, city: str = "", admin=None) -> Club:
    """A new club; names need not be unique, the slug is (``name``, ``name-2``, …)."""
    club = create_with_slug(Club, name, name=name, city=city)
    if admin is not None:
        club.admins.add(admin)
    return club


@transaction.atomic
def player_create(*, name: str, club: Club | None = None, member_number: str = "",
                  created_by=None) -> Player:
    """A new player (``UserError`` on ``member_number`` when the club has it)."""
    with unique_errors(Player):
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
    """Change a player's club or member number (``UserError`` on ``member_number``
    when the club has it). A name is corrected by ``clublife.services.players.
    player_rename`` (it keeps the old name and has the standings that show it redone)."""
    if "name" in fields:
        raise InternalError("player_update does not rename: use player_rename")
    for name, value in fields.items():
        setattr(player, name, value)
    with unique_errors(Player):
        player.save(update_fields=list(fields))
    return player


# ---------------------------------------------------------------- a club's defaults


def _fee(fields: dict[str, Any], name: str, errors: list[FieldError], *,
         nullable: bool = False, low: int = 0, high: int = MAX_FEE_CENTS) -> None:
    if name not in fields:
        return
    value = fields[name]
    if value is None and nullable:
        return
    if not is_int(value) or not low <= value <= high:
        errors.append(FieldError(
            name, gettext_noop("Must be a whole number from %(min)s to %(max)s."),
            {"min": low, "max": high}))


def check_table_money(fields: dict[str, Any]) -> None:
    """Check the table-money fields present in ``fields`` (club or tournament)."""
    errors: list[FieldError] = []
    _fee(fields, "loss_fee_cents", errors, nullable=True)
    _fee(fields, "loss_fee_high_cents", errors, nullable=True)
    _fee(fields, "loss_fee_from", errors, nullable=True, low=1, high=1000)
    if errors:
        raise UserError(errors)


CLUB_DEFAULTS = ("default_game", "default_rules", "loss_fee_cents", "loss_fee_from",
                 "loss_fee_high_cents", "season_best_n", "season_min_evenings")


@transaction.atomic
def club_defaults_update(*, club: Club, **fields: Any) -> Club:
    """Change a club's defaults: game and house rules (checked by the game's engine),
    table money and the ranking defaults of its new seasons."""
    unknown = set(fields) - set(CLUB_DEFAULTS)
    if unknown:
        raise user_error(sorted(unknown)[0], gettext_noop("Unknown field “%(name)s”."),
                         name=sorted(unknown)[0])
    game = fields.get("default_game", club.default_game)
    check_game(game)
    if "default_game" in fields and "default_rules" not in fields \
            and game != club.default_game:
        fields["default_rules"] = {}  # the old game's house rules mean nothing to the new one
    rules = fields.get("default_rules", club.default_rules)
    try:
        get_engine(game).options(rules)
    except UserError as exc:
        raise UserError([FieldError(f"default_{e.field}", e.message, e.params)
                         for e in exc.errors]) from None
    check_table_money({k: v for k, v in fields.items() if k.startswith("loss_fee")})
    for name in ("loss_fee_cents", "loss_fee_high_cents"):
        if name in fields and fields[name] is None:
            fields[name] = 0
    errors: list[FieldError] = []
    if "season_best_n" in fields:
        _fee(fields, "season_best_n", errors, nullable=True, low=1, high=366)
    if "season_min_evenings" in fields:
        _fee(fields, "season_min_evenings", errors, low=0, high=366)
    if errors:
        raise UserError(errors)
    for name, value in fields.items():
        setattr(club, name, value)
    club.save(update_fields=list(fields) or None)
    return club


# ---------------------------------------------------------------- member lists (CSV)


class MembersInvalid(Exception):
    """A member list with bad lines: nothing was imported. ``lines`` are all the lines,
    the bad ones with their errors."""

    def __init__(self, lines):
        self.lines = lines
        super().__init__(f"{sum(1 for line in lines if line.errors)} bad lines")


class MembersUnconfirmed(MembersInvalid):
    """A member list with suspects (names alike another line's or a member's) that the
    director has neither kept nor dropped: nothing was imported. ``undecided`` are those
    lines."""

    def __init__(self, lines, undecided):
        self.lines, self.undecided = lines, undecided
        Exception.__init__(self, f"{len(undecided)} lines to confirm")


def _label(name: str, number: str) -> str:
    return f"{name} ({number})" if number else name


def _flag_alike(lines, players: list[Player]) -> None:
    """Mark the suspects: a line whose name is alike (``loose_key``) another line's, or
    an existing member's other than the one the line is (same name under another number,
    case, hyphen or umlaut variants)."""
    members: dict[str, list[Player]] = {}
    for player in players:
        members.setdefault(loose_key(player.name), []).append(player)
    in_list: dict[str, list] = {}
    for line in lines:
        if not line.errors and line.status != "unchanged":
            in_list.setdefault(loose_key(line.name), []).append(line)
    for key, group in in_list.items():
        for line in group:
            for other in group:
                if other is not line:
                    line.alike.append((
                        _("Alike line %(line)s: %(other)s."),
                        {"line": other.number,
                         "other": _label(other.name, other.member_number)}))
            for player in members.get(key, []):
                if player != line.match:
                    line.alike.append((_("Alike the member %(member)s."),
                                       {"member": _label(player.name, player.member_number)}))


def members_preview(*, club: Club, text: str):
    """Read a member list and say per line what an import would do or why it cannot:
    ``new``; ``unchanged`` (already a member under that number, or under that name where
    neither has a number); ``exists`` (a member of that name exists — the same person or
    a new one? the import asks, and takes the same person unless told otherwise); or
    ``error`` (a line that cannot be read, a number held by someone else, a name and
    number twice in the list). Names compare as people write them (``clubs.names``:
    spacing, case, "Schwarz, Karin"). A line that would import and whose name is only
    *alike* another line's or a member's is a *suspect* (``line.alike`` says why): the
    import takes it only when told to. Nothing is stored."""
    lines = parse_members(text)
    players = list(club.players.order_by("pk"))
    by_number = {p.member_number: p for p in players if p.member_number}
    by_name: dict[str, list[Player]] = {}
    for player in players:
        by_name.setdefault(name_key(player.name), []).append(player)
    seen: dict[tuple[str, str], int] = {}
    for line in lines:
        if line.errors:
            continue
        key = name_key(line.name)
        first = seen.setdefault((key, line.member_number), line.number)
        if first != line.number:
            line.error("name", _("%(name)s appears twice in the list (line %(line)s)."),
                       name=line.name, line=first)
            continue
        if line.member_number and line.member_number in by_number:
            holder = by_number[line.member_number]
            if name_key(holder.name) == key:
                line.status = "unchanged"
                line.match = holder
            else:
                line.error("member_number", _("Member number %(number)s belongs to %(name)s."),
                           number=line.member_number, name=holder.name)
            continue
        namesakes = [p for p in by_name.get(key, [])
                     if not (line.member_number and p.member_number)]
        if namesakes:
            line.match = namesakes[0]
            same_number_free = not line.member_number and not namesakes[0].member_number
            line.status = "unchanged" if same_number_free else "exists"
    _flag_alike(lines, players)
    return lines


def _line_numbers(value: Any, name: str) -> set[int]:
    if not isinstance(value, (list, tuple, set, frozenset)) \
            or not all(is_int(n) for n in value):
        raise user_error(name, gettext_noop("Must be a list of line numbers."))
    return set(value)


@transaction.atomic
def members_import(*, club: Club, text: str, created_by=None, as_new: Any = (),
                   keep: Any = (), drop: Any = ()) -> list[Player]:
    """Import a member list all or nothing: with any bad line ``MembersInvalid`` is raised
    and nothing is stored. New members are created and returned. A line whose name is
    already a member's (``exists``) is that member — who gets the line's member number if
    they had none — unless its line number is in ``as_new``: then it is a new member.
    Lines in ``drop`` are left out. A suspect (a name alike another's) is imported only
    when its line number is in ``keep``; a suspect in neither raises
    ``MembersUnconfirmed`` and nothing is stored."""
    as_new = _line_numbers(as_new, "as_new")
    keep, drop = _line_numbers(keep, "keep"), _line_numbers(drop, "drop")
    # Lock the club so two imports of one list never both create its members.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    lines = members_preview(club=club, text=text)
    if any(line.errors for line in lines):
        raise MembersInvalid(lines)
    undecided = [line for line in lines
                 if line.suspect and line.number not in keep | drop]
    if undecided:
        raise MembersUnconfirmed(lines, undecided)
    created = []
    for line in lines:
        if line.number in drop:
            continue
        if line.status == "exists" and line.number not in as_new:
            if line.member_number and not line.match.member_number:
                line.match.member_number = line.member_number
                with unique_errors(Player):  # given meanwhile to a player added alone
                    line.match.save(update_fields=["member_number"])
            continue
        if line.status in ("new", "exists"):
            with unique_errors(Player):
                created.append(Player.objects.create(name=line.name, club=club,
                                                     member_number=line.member_number,
                                                     created_by=created_by))
    return created
