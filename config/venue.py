"""Serve the app from one laptop to the tablets on the club's Wi-Fi: ``make venue``.

The laptop's address on the local network is found at start (the interface that would
route to the internet; no packet is sent), the app is told to accept it as its host and
to build every printed link and QR code from it (``SITE_URL``), and a production server
(gunicorn, one process with threads, so the in-process tasks and the in-memory cache are
shared) listens on every interface. The terminal shows the address and a QR code of the
director's console. Plain HTTP: see the README on what a service worker needs.

Settings from the environment still win (e.g. ``DATABASE_URL``, ``VENUE_PORT``).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

from config.serve import number_from, venue_args

ROOT = Path(__file__).resolve().parent.parent
SECRET_FILE = ROOT / ".venue-secret-key"
DEFAULT_PORT = 8000


def lan_address() -> str:
    """The IPv4 address of the interface with the default route, or 127.0.0.1 when the
    laptop has no network (then only the laptop itself can open the app)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing is looked up, nothing is sent
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def venue_port(environ: dict[str, str]) -> int:
    return number_from(environ, "VENUE_PORT", DEFAULT_PORT, 65535)


def site_url(address: str, port: int) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def venue_environment(environ: dict[str, str], *, address: str, port: int,
                      secret_key: str) -> dict[str, str]:
    """The environment the server runs with: the venue's address as host, origin and
    site URL; plain HTTP (no TLS redirect, no secure-only cookies, no HSTS); static files
    served from the source folders. Values already set in ``environ`` are kept, except
    ``TRUSTED_PROXY``: the laptop has no proxy in front of it, so a client's
    ``X-Forwarded-Proto`` is never believed."""
    url = site_url(address, port)
    hosts = ",".join(dict.fromkeys([address.strip("[]"), "127.0.0.1", "localhost"]))
    env = {
        "DEBUG": "false",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": hosts,
        "CSRF_TRUSTED_ORIGINS": f"{url},http://127.0.0.1:{port},http://localhost:{port}",
        "SITE_URL": url,
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "false",
        "SECURE_HSTS_PRELOAD": "false",
        "STATIC_COLLECTED": "false",
    }
    return {**environ, **{k: v for k, v in env.items() if k not in environ},
            "TRUSTED_PROXY": "false"}


def stored_secret_key(path: Path = SECRET_FILE) -> str:
    """One secret key per laptop, kept in a file (not in git), so logins survive a
    restart of the evening's server."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(50)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


def main() -> None:
    port = venue_port(dict(os.environ))
    address = lan_address()
    env = venue_environment(dict(os.environ), address=address, port=port,
                            secret_key=stored_secret_key())
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True)
    console = f"{env['SITE_URL']}/console/"
    print(f"\nStichliste for the tables: {env['SITE_URL']}/")
    print(f"Director's console:        {console}\n")
    try:
        import segno

        segno.make(console, error="m").terminal(compact=True)
    except ImportError:  # the QR code is a convenience; the address above is enough
        pass
    if address == "127.0.0.1":
        print("No network found: only this laptop can open the app.")
    print("Tablets on the same Wi-Fi open the address above or scan a table card's QR code.")
    print("First evening? Create the director's account: "
          ".venv/bin/python manage.py createsuperuser\n")
    os.chdir(ROOT)
    args = venue_args(bind=f"0.0.0.0:{port}")
    os.execve(args[0], args, env)


if __name__ == "__main__":
    main()
