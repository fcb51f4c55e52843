"""Standings with a real Redis and a real Celery worker (with beat), not mocked:
a submitted sheet reaches the standings; score entry goes on while Redis is down and
the standings catch up when it returns; a worker killed mid-recompute leaves no wrong
standings; a burst of submissions causes a bounded number of recomputes."""


import pytest
from django.db import DatabaseError, transaction

from games.engines.base import dealer_of
from tests.factories import ClubFactory, ParticipantFactory, PlayerFactory
from tests.system.conftest import Web, celery_worker, needs_services, service_env, wait_for
from tournaments.models import StandingsState, Table
from tournaments.services import round_draw, tournament_create

pytestmark = [needs_services, pytest.mark.django_db(transaction=True)]

SPADES_WON = {"declarer": 2, "game": "spades", "matadors": 1, "won": True}  # +22
PASSED = {"passed": True}


def skat_round(series_3=3, series_4=4):
    """A published Skat tournament of 7 (a 4-table and a 3-table), first round drawn."""
    club = ClubFactory()
    tournament = tournament_create(name="System", game="skat", club=club, published=True,
                                   rules={"series_deals_3": series_3, "series_deals_4": series_4})
    for n in range(7):
        ParticipantFactory(tournament=tournament, player=PlayerFactory(club=club),
                           start_number=n + 1)
    rnd = round_draw(tournament_id=tournament.pk, method="random", seed=3)
    three = next(t for t in Table.objects.filter(round=rnd) if t.seats.count() == 3)
    four = next(t for t in Table.objects.filter(round=rnd) if t.seats.count() == 4)
    return tournament, three, four


def post_deal(web, table, number, deal):
    return web.request("POST", f"/api/v1/tables/{table.pk}/deals/", {"number": number, **deal},
                       {"Authorization": f"Table {table.entry_token}",
                        "Idempotency-Key": f"{table.pk}-{number}"})


def standings(web, tournament):
    status, body = web.request("GET", f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert status == 200, body
    return body


def fresh_standings(web, tournament, timeout=60):
    return wait_for(lambda: (lambda b: b if not b["stale"] and b["computed_at"] else None)(
        standings(web, tournament)), timeout, "fresh standings")


def start(processes, proc):
    proc.start()
    processes.append(proc)
    return proc


def score_of(body, participant_id):
    return next(r["score"] for r in body["results"] if r["participant"] == participant_id)


def test_a_submitted_sheet_appears_in_the_standings(redis_server, processes, tmp_path):
    tournament, three, _four = skat_round()
    env = service_env(redis_server)
    web = start(processes, Web(env, tmp_path / "web.log"))
    start(processes, celery_worker(env, tmp_path / "worker.log"))
    for number, deal in enumerate([SPADES_WON, PASSED, PASSED], start=1):
        assert post_deal(web, three, number, deal)[0] == 201
    assert web.request("POST", f"/api/v1/tables/{three.pk}/submit/",
                       headers={"Authorization": f"Table {three.entry_token}"})[0] == 200
    body = fresh_standings(web, tournament)
    declarer = three.seats.get(seat=2).participant_id
    assert body["results"][0]["participant"] == declarer
    assert score_of(body, declarer) == 22 + 50


def test_score_entry_goes_on_while_redis_is_down_and_standings_catch_up(
        redis_server, processes, tmp_path):
    tournament, three, _four = skat_round()
    env = service_env(redis_server)
    web = start(processes, Web(env, tmp_path / "web.log"))
    start(processes, celery_worker(env, tmp_path / "worker.log"))
    assert post_deal(web, three, 1, PASSED)[0] == 201
    fresh_standings(web, tournament)

    redis_server.stop()
    status, body = post_deal(web, three, 2, SPADES_WON)
    assert status == 201, body
    assert body["scores"] == [0, 22, 0]
    during = standings(web, tournament)
    assert during["stale"] is True
    declarer = three.seats.get(seat=2).participant_id
    assert score_of(during, declarer) == 0  # old standings, never wrong ones

    redis_server.start()
    after = fresh_standings(web, tournament, timeout=60)
    assert score_of(after, declarer) == 22 + 50


def recompute_holds_the_lock(tournament) -> bool:
    """A recompute holds the tournament's state row (``SELECT … FOR UPDATE``) while it runs."""
    try:
        with transaction.atomic():
            list(StandingsState.objects.select_for_update(nowait=True)
                 .filter(tournament=tournament))
    except DatabaseError:
        return True
    return False


def test_a_worker_killed_mid_recompute_leaves_no_wrong_standings(
        redis_server, processes, tmp_path):
    tournament, three, _four = skat_round()
    env = service_env(redis_server)
    web = start(processes, Web(env, tmp_path / "web.log"))
    worker = start(processes, celery_worker(env, tmp_path / "worker.log"))
    assert post_deal(web, three, 1, PASSED)[0] == 201
    fresh_standings(web, tournament)
    worker.kill()

    slow = start(processes, celery_worker(
        service_env(redis_server, STANDINGS_FAULT_INJECTION_PAUSE="30"),
        tmp_path / "slow-worker.log"))
    assert post_deal(web, three, 2, SPADES_WON)[0] == 201
    queued = f"stichliste:1:standings:queued:{tournament.pk}"
    wait_for(lambda: redis_server.client().exists(queued) == 0, 30, "the recompute to start")
    # inside the injected pause: holding the lock, rows not yet replaced
    wait_for(lambda: recompute_holds_the_lock(tournament), 30, "the recompute's lock")
    slow.kill()

    declarer = three.seats.get(seat=2).participant_id
    during = standings(web, tournament)
    assert during["stale"] is True and score_of(during, declarer) == 0

    start(processes, celery_worker(env, tmp_path / "worker-again.log"))
    after = fresh_standings(web, tournament, timeout=60)
    assert score_of(after, declarer) == 22 + 50


def test_a_burst_of_submissions_causes_a_bounded_number_of_recomputes(
        redis_server, processes, tmp_path):
    tournament, three, four = skat_round(series_3=36, series_4=48)
    env = service_env(redis_server, STANDINGS_FAULT_INJECTION_PAUSE="1")
    web = start(processes, Web(env, tmp_path / "web.log"))
    start(processes, celery_worker(env, tmp_path / "worker.log"))
    posted = 0
    for number in range(1, 31):
        for table in (three, four):
            # at the 4-table the dealer sits out: the seat after the dealer declares
            declarer = 2 if table is three else dealer_of(number, 4) % 4 + 1
            deal = {**SPADES_WON, "declarer": declarer}
            assert post_deal(web, table, number, deal)[0] == 201
            posted += 1
    body = fresh_standings(web, tournament, timeout=90)
    recomputes = StandingsState.objects.get(tournament=tournament).recomputes
    # each recompute takes at least a second here, and at most one is queued at a time
    assert 1 <= recomputes <= 15 < posted
    declarer = three.seats.get(seat=2).participant_id
    assert score_of(body, declarer) == 30 * (22 + 50)
