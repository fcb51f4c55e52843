"""The players' push (``tournaments.push``) seen from the app: the channels a live part
names and what a publish that fails leaves. The proxy's side (nginx's pub/sub module:
subscribing, a deal's message, the publisher's port) runs through real nginx in
``tests/system/test_live_through_proxy.py``."""

import logging
import re
import socket

import pytest
from django.test import Client

from tests.tournaments.test_player_phone_services import fill, seated
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _changes_commit(requests_commit):
    """A change's bumps (and so its publishes) run when the next request ends."""


def live(participant) -> str:
    resp = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/me/{participant.personal_token}/live/")
    assert resp.status_code == 200
    return resp.content.decode()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_without_the_proxys_push_the_page_names_no_channels(table, settings):
    settings.PUSH_URL = None
    assert "data-push" not in live(seated(table)[0])


def test_the_live_part_names_the_keyed_channels_of_what_it_shows(table, settings):
    settings.PUSH_URL = "http://127.0.0.1:9"
    players = seated(table)
    path = re.search(r'data-push="([^"]+)"', live(players[0])).group(1)
    channels = path.removeprefix("/push/").split(",")
    # the tournament, its calls, the table's amendments and the table (its card): four
    # names of 24 hex digits, none a scope's
    assert len(set(channels)) == 4
    assert all(re.fullmatch(r"[0-9a-f]{24}", c) for c in channels)
    mate = re.search(r'data-push="([^"]+)"', live(players[1])).group(1)
    assert mate == path  # the same table, the same channels
    settings.SECRET_KEY = "another-secret-" + "k" * 40
    assert re.search(r'data-push="([^"]+)"', live(players[0])).group(1) != path


def test_a_deal_is_stored_when_the_proxy_does_not_take_its_message(table, table_client,
                                                                   settings, caplog):
    settings.PUSH_URL = f"http://127.0.0.1:{closed_port()}"
    with caplog.at_level(logging.WARNING, logger="tournaments.push"):
        fill(table_client, table, 1)  # 201
        live(seated(table)[0])  # the request after the deal: its bumps ran
    assert Deal.objects.filter(table_id=table["id"]).count() == 1
    assert "push to tb" in caplog.text
