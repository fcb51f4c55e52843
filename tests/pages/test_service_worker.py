"""The sheet's service worker script: a new one is fetched as soon as it is deployed
(``no-cache``), and it may control the whole site."""

from django.test import Client


def test_the_worker_is_asked_for_at_each_visit_and_controls_the_site(db):
    resp = Client().get("/sw.js")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("text/javascript")
    assert resp["Cache-Control"] == "no-cache" and resp["Service-Worker-Allowed"] == "/"
