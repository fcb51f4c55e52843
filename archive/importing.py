"""Storing a checked archive: clubs and players reused or created, users linked by
username, new entry tokens and personal tokens drawn (the participants' by the model's
default), standings recomputed."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from archive.reading import archive_read
from clubs.models import Club, Player
from clubs.uniques import create_with_slug, unique_errors
from prizes.models import FeeEvent, PrizeList
from tournaments.models import (
    Deal,
    DirectorCall,
    Objection,
    Participant,
    Round,
    Seat,
    SheetConfirmation,
    SheetEvent,
    Table,
    Team,
    Tournament,
)
from tournaments.recompute.outbox import sheet_changed
from tournaments.services import history
from tournaments.statements import insert_rows
from tournaments.tokens import new_token


def _reused_club(c: dict) -> Club | None:
    return Club.objects.filter(slug=c["slug"], name=c["name"]).first()


def archive_clubs_written(archive: dict[str, Any]) -> list[Club]:
    """The existing clubs an import of ``archive`` (as ``archive_read`` returns it) would
    write into: the tournament's club, and every club that would get new players."""
    reused = {slug: _reused_club(c) for slug, c in archive["clubs"].items()}
    written = {}
    slug = archive["tournament"]["club"]
    if slug and reused[slug] is not None:
        written[slug] = reused[slug]
    for p in archive["participants"].values():
        club = reused.get(p["club"]) if p["club"] else None
        if club is None or p["club"] in written:
            continue
        if not (p["member_number"] and Player.objects.filter(
                club=club, member_number=p["member_number"]).exists()):
            written[p["club"]] = club
    return list(written.values())


def _store_clubs(clubs: dict[str, dict]) -> dict[str, tuple[Club, bool]]:
    """slug → (club, reused)."""
    out = {}
    for slug, c in clubs.items():
        reused = _reused_club(c)
        if reused is not None:
            out[slug] = (reused, True)
            continue
        out[slug] = (create_with_slug(Club, c["name"], slug=slug, name=c["name"],
                                      city=c["city"]), False)
    return out


def _store_players(participants: dict, clubs: dict[str, tuple[Club, bool]],
                   importer) -> dict[int, Player]:
    """start number → player: a reused club's member by number, else a new player (all
    new ones in one statement)."""
    wanted = {(clubs[p["club"]][0].pk, p["member_number"]) for p in participants.values()
              if p["club"] and clubs[p["club"]][1] and p["member_number"]}
    members = {}
    if wanted:
        for player in Player.objects.filter(club_id__in={club for club, _n in wanted},
                                            member_number__in={n for _c, n in wanted}):
            members[(player.club_id, player.member_number)] = player
    out, new = {}, []
    for number, p in participants.items():
        club, reused = clubs[p["club"]] if p["club"] else (None, False)
        player = members.get((club.pk, p["member_number"])) \
            if reused and p["member_number"] else None
        if player is None:
            player = Player(name=p["name"], club=club, member_number=p["member_number"],
                            publication=p["publication"], created_by=importer)
            new.append(player)
        out[number] = player
    with unique_errors(Player):  # the number given meanwhile to someone else
        Player.objects.bulk_create(new)
    return out


def _usernames(table: dict) -> set[str]:
    """The users a table names: authors of its history, who resolved its objections and
    who handled its calls."""
    return ({e["user"] for e in table["history"]}
            | {o["resolved_by"] for o in table["objections"]}
            | {c["handled_by"] for c in table["calls"]}) - {None}


def _users(rounds: list[dict]) -> dict[str, Any]:
    names = {name for r in rounds for t in r["tables"] for name in _usernames(t)}
    user_model = get_user_model()
    users = {u.username: u for u in user_model.objects.filter(username__in=names)}
    for name in sorted(names - set(users)):
        user = user_model(username=name, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users


def _with_times(model, rows: list, items: list[dict], *fields: str) -> None:
    """Give bulk-created ``rows`` the archive's times (``at`` is set on creation)."""
    for row, item in zip(rows, items, strict=True):
        for name in fields:
            setattr(row, name, item[name])
    if rows:
        model.objects.bulk_update(rows, list(fields))


def _by_number(participants: dict[int, Participant], number: int | None) -> Participant | None:
    return None if number is None else participants[number]


def _store_voices(tables: list[tuple[Table, dict]], participants: dict[int, Participant],
                  users: dict[str, Any]) -> None:
    """The tables' confirmations, objections and calls for the director: each kind in
    one statement, and one for their times."""
    def who(number: int | None) -> Participant | None:
        return _by_number(participants, number)

    def user(name: str | None):
        return users[name] if name is not None else None

    items = [c for _table, t in tables for c in t["confirmations"]]
    confirmations = SheetConfirmation.objects.bulk_create(
        SheetConfirmation(table=table, seat=c["seat"], version=c["version"],
                          participant=who(c["participant"]))
        for table, t in tables for c in t["confirmations"])
    _with_times(SheetConfirmation, confirmations, items, "at")
    items = [o for _table, t in tables for o in t["objections"]]
    objections = Objection.objects.bulk_create(
        Objection(table=table, deal_number=o["deal_number"], note=o["note"],
                  participant=who(o["participant"]), status=o["status"],
                  resolution=o["resolution"], resolved_at=o["resolved_at"],
                  resolved_by=user(o["resolved_by"]))
        for table, t in tables for o in t["objections"])
    _with_times(Objection, objections, items, "at")
    items = [c for _table, t in tables for c in t["calls"]]
    calls = DirectorCall.objects.bulk_create(
        DirectorCall(table=table, participant=who(c["participant"]), reason=c["reason"],
                     status=c["status"], seen_at=c["seen_at"], closed_at=c["closed_at"],
                     handled_by=user(c["handled_by"]))
        for table, t in tables for c in t["calls"])
    _with_times(DirectorCall, calls, items, "at")


def _store_deals(tables: list[tuple[Table, dict]]) -> None:
    """Every deal of the tables in one ``executemany``, as ``Deal.objects.bulk_create``
    would store them (the ORM's preparation of 34,236 model rows took seconds). A JSON
    value is written once however many deals share it (``sheets.DealMemo``), as Django's
    JSONField writes it (``json.dumps``)."""
    fields = {f.name: f for f in Deal._meta.concrete_fields}
    now = timezone.now()
    created = fields["created_at"].get_db_prep_save(now, connection)
    updated = fields["updated_at"].get_db_prep_save(now, connection)
    written: dict[int, str] = {}

    def text(value: Any) -> str:
        found = written.get(id(value))
        if found is None:
            found = written[id(value)] = json.dumps(value)
        return found

    insert_rows(Deal, ("table", "number", "record", "scores", "extra", "version",
                       "created_at", "updated_at"),
                [(table.pk, number, text(d.record), text(d.scores), text(d.extra), 1,
                  created, updated)
                 for table, t in tables for number, d in enumerate(t["deals"], start=1)])


def _store_tables(rnd: Round, tables_in: list[dict],
                  participants: dict[int, Participant]) -> list[tuple[Table, dict]]:
    """The round's tables and their seats, each in one statement; (table, its archive
    part) in order."""
    tables = Table.objects.bulk_create(
        Table(round=rnd, number=t["number"], entry_token=new_token(),
              submitted=t["submitted"], submitted_at=t["submitted_at"], summary=t["summary"],
              version=t["version"], shortened=t["shortened"], end_reason=t["end_reason"])
        for t in tables_in)
    Seat.objects.bulk_create(
        Seat(table=table, seat=s["seat"], participant=participants[s["participant"]],
             score=s["score"], figures=s["figures"])
        for table, t in zip(tables, tables_in, strict=True) for s in t["seats"])
    return list(zip(tables, tables_in, strict=True))


def _store_histories(tables: list[tuple[Table, dict]], participants: dict[int, Participant],
                     users: dict[str, Any]) -> None:
    history.restore([(table, [
        SheetEvent(table=table, user=users.get(e["user"]) if e["user"] else None,
                   by_table=e["by_table"], ip=e["ip"], action=e["action"], at=e["at"],
                   participant=_by_number(participants, e["participant"]),
                   deal_number=e["deal_number"], before=e["before"], after=e["after"])
        for e in t["history"]]) for table, t in tables])


def _store_teams_and_prizes(tournament: Tournament, archive: dict,
                            participants: dict[int, Participant]) -> None:
    for team in archive["teams"]:
        stored = Team.objects.create(tournament=tournament, name=team["name"])
        Participant.objects.filter(pk__in=[participants[n].pk for n in team["members"]]) \
            .update(team=stored)
    prizes = archive["prizes"]
    if prizes is None:
        return
    lot = [participants[n].pk for n in prizes["lot"]] if prizes["lot"] else None
    PrizeList.objects.create(tournament=tournament, config=prizes["config"], lot=lot)
    for event in prizes["fee_events"]:
        stored = FeeEvent.objects.create(tournament=tournament,
                                         entry_fee_cents=event["entry_fee_cents"])
        FeeEvent.objects.filter(pk=stored.pk).update(at=event["at"])


@transaction.atomic
def tournament_import(*, data: Any, importer=None) -> Tournament:
    """Store an event document as a new tournament (``importer`` becomes its director and
    an admin of its club when that club is created by the import): all of it in one
    transaction, or nothing."""
    return archive_store(archive_read(data), importer=importer)


@transaction.atomic
def archive_store(archive: dict[str, Any], *, importer=None) -> Tournament:
    """Store a document as ``archive_read`` returned it (see ``tournament_import``)."""
    t = archive["tournament"]
    clubs = _store_clubs(archive["clubs"])
    players = _store_players(archive["participants"], clubs, importer)
    club = clubs[t["club"]][0] if t["club"] else None
    if club is not None and importer is not None and not clubs[t["club"]][1]:
        club.admins.add(importer)
    tournament = create_with_slug(
        Tournament, t["name"], slug=t["slug"], name=t["name"], game=t["game"],
        rules=t["rules"], club=club, date=t["date"],
        status=t["status"], published=t["published"], avoid_same_club=t["avoid_same_club"],
        club_evening=t["club_evening"], loss_fee_cents=t["loss_fee_cents"],
        loss_fee_from=t["loss_fee_from"], loss_fee_high_cents=t["loss_fee_high_cents"],
        rounds_planned=t["rounds_planned"], team_size=t["team_size"],
        categories=t["categories"], club_ranking_k=t["club_ranking_k"],
        one_prize_per_player=t["one_prize_per_player"])
    Tournament.objects.filter(pk=tournament.pk).update(created_at=t["created_at"])
    if importer is not None:
        tournament.directors.add(importer)
    participants = dict(zip(sorted(archive["participants"]), Participant.objects.bulk_create(
        Participant(
            tournament=tournament, player=players[number], start_number=number,
            checked_in=p["checked_in"], withdrawn=p["withdrawn"],
            club_id=players[number].club_id, club_name=p["club_name"],
            # a label the tournament lacks is dropped, as renaming a category does
            categories=[c for c in t["categories"] if c in p["categories"]])
        for number, p in sorted(archive["participants"].items())), strict=True))
    registered = [(participants[number], p["registered_at"])
                  for number, p in archive["participants"].items()
                  if p["registered_at"] is not None]
    for participant, at in registered:
        participant.registered_at = at
    if registered:
        Participant.objects.bulk_update([p for p, _at in registered], ["registered_at"])
    _store_teams_and_prizes(tournament, archive, participants)
    users = _users(archive["rounds"])
    tables: list[tuple[Table, dict]] = []
    for r in archive["rounds"]:
        rnd = Round.objects.create(tournament=tournament, number=r["number"],
                                   method=r["method"], seed=r["seed"], closed=r["closed"],
                                   reopened=r["reopened"])
        Round.objects.filter(pk=rnd.pk).update(created_at=r["created_at"])
        tables += _store_tables(rnd, r["tables"], participants)
    _store_deals(tables)
    _store_histories(tables, participants, users)
    _store_voices(tables, participants, users)
    sheet_changed(tournament.pk)  # the standings are computed, not imported
    tournament.refresh_from_db()
    return tournament
