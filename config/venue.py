"""Serve the app from one laptop to the tablets on the club's Wi-Fi: ``make venue``.

A *candidate* is one IPv4 address of one of the laptop's interfaces that are up, loopback
left out: the addresses a tablet could reach the laptop at. A laptop often has several (the
club's Wi-Fi, a cable, a phone's hotspot, a VPN, a container bridge), and only the director
knows which network the tablets are on. So ``make venue`` lists them with their interfaces
and takes the one the director names (``make venue ADDRESS=192.168.1.20``, or the
environment's ``VENUE_ADDRESS``); named none, it takes the one with the route to the
internet (no packet is sent) and says how to choose another. A named address that is not
one of the laptop's stops the start with the list.

The app is told to accept that address as its host and origin and to build every printed
link and QR code from it (``SITE_URL``), and a production server (gunicorn, one process with
threads, so the in-process tasks and the in-memory cache are shared) listens on every
interface. The terminal shows the address and a QR code of the director's console. Plain
HTTP: see the README on what a service worker needs.

The terminal speaks the laptop's language (``LANGUAGE``/``LANG``: German or English), from
the app's own catalog; Django is not started for it. Settings from the environment still
win (e.g. ``DATABASE_URL``, ``VENUE_PORT``, ``SITE_URL``).
"""

from __future__ import annotations

import gettext
import ipaddress
import json
import os
import re
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from config.serve import number_from, venue_args

ROOT = Path(__file__).resolve().parent.parent
SECRET_FILE = ROOT / ".venue-secret-key"
DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"


def _(message: str) -> str:
    """``message`` in the laptop's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, read at each call) from the app's catalog; English is the msgid itself."""
    return gettext.translation("django", localedir=ROOT / "locale", fallback=True).gettext(
        message)


class Candidate(NamedTuple):
    interface: str
    address: str


class Choice(NamedTuple):
    address: str
    notes: list[str]


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not ip.is_loopback and not ip.is_unspecified


def _unique(found: list[Candidate]) -> list[Candidate]:
    """The first of each address (one address on two interfaces is listed once)."""
    first: dict[str, Candidate] = {}
    for candidate in found:
        first.setdefault(candidate.address, candidate)
    return list(first.values())


def candidates_from_ip_json(text: str) -> list[Candidate]:
    """The candidates in the output of ``ip -j -4 addr`` (iproute2): interfaces that are up,
    their IPv4 addresses, loopback left out. Interfaces without IPv4 appear as ``{}``."""
    found = []
    for link in json.loads(text or "[]"):
        if not isinstance(link, dict) or "UP" not in link.get("flags", []):
            continue
        for info in link.get("addr_info", []):
            if info.get("family", "inet") == "inet" and _usable(info.get("local", "")):
                found.append(Candidate(link.get("ifname", "?"), info["local"]))
    return _unique(found)


_INET = re.compile(r"^\s+inet (?:addr:)?(\d{1,3}(?:\.\d{1,3}){3})\b")
_UP = re.compile(r"[<,]UP[,>]|^\s+UP\b")


def candidates_from_ifconfig(text: str) -> list[Candidate]:
    """The candidates in the output of ``ifconfig`` (macOS and the BSDs, Linux net-tools old
    and new): a line that does not start with a blank opens an interface; its ``inet``
    lines hold the addresses; ``UP`` among its flags says it is up."""
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            blocks.append((line.split()[0].rstrip(":"), [line]))
        elif blocks:
            blocks[-1][1].append(line)
    found = []
    for name, lines in blocks:
        if not any(_UP.search(line) for line in lines):
            continue
        for line in lines[1:]:
            match = _INET.match(line)
            if match and _usable(match.group(1)):
                found.append(Candidate(name, match.group(1)))
    return _unique(found)


def _output(args: list[str]) -> str | None:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=10,
                              env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def interface_candidates() -> list[Candidate]:
    """The laptop's candidates: from ``ip`` (Linux), else from ``ifconfig`` (macOS, BSD,
    old Linux); with neither, the address of the route to the internet, if any."""
    for args, parse in ((["ip", "-j", "-4", "addr", "show"], candidates_from_ip_json),
                        (["ifconfig", "-a"], candidates_from_ifconfig),
                        (["/sbin/ifconfig", "-a"], candidates_from_ifconfig)):
        text = _output(args)
        if text is None:
            continue
        try:
            return parse(text)
        except ValueError:  # output of a kind this parser does not know: try the next
            continue
    routed = lan_address()
    return [Candidate("?", routed)] if routed != LOOPBACK else []


def lan_address() -> str:
    """The IPv4 address of the interface with the default route, or 127.0.0.1 when the
    laptop has no route out (then only the laptop itself can open the app)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing is looked up, nothing is sent
        return probe.getsockname()[0]
    except OSError:
        return LOOPBACK
    finally:
        probe.close()


def listing(candidates: list[Candidate], chosen: str) -> list[str]:
    """One line per candidate for the terminal, the chosen one marked."""
    width = max((len(c.address) for c in candidates), default=0)
    mark = "  ← " + _("in use")
    return [f"  {c.address.ljust(width)}  {c.interface}" + (mark if c.address == chosen else "")
            for c in candidates]


def choose_address(candidates: list[Candidate], named: str, *, routed: str) -> Choice:
    """The address to serve at: ``named`` (the director's ``ADDRESS``/``VENUE_ADDRESS``)
    when it is one of the candidates or loopback; named none, ``routed`` (the route to the
    internet's) when it is a candidate, else the first; with no candidate, loopback.
    A named address that is not the laptop's stops the start with a message listing the
    candidates (``SystemExit``: no traceback, exit status 1)."""
    named = named.strip()
    by_address = {c.address: c for c in candidates}
    if named:
        if named in by_address:
            return Choice(named, [])
        try:
            loopback = ipaddress.ip_address(named).is_loopback
        except ValueError:
            loopback = False
        if loopback and ipaddress.ip_address(named).version == 4:
            return Choice(named, [_("Only this laptop can open the app at %(address)s.")
                                  % {"address": named}])
        if not candidates:
            raise SystemExit(_(
                "The named address %(address)s is not an IPv4 address of this laptop, and it "
                "has no network address besides its own (127.0.0.1). Connect it to the "
                "network of the tablets first.") % {"address": named})
        raise SystemExit("\n".join([
            _("The named address %(address)s is not an IPv4 address of this laptop. Its "
              "addresses:")
            % {"address": named},
            *listing(candidates, ""),
            _("Name the one on the network of the tablets, e.g.: make venue "
              "ADDRESS=%(address)s") % {"address": candidates[0].address},
        ]))
    if not candidates:
        return Choice(LOOPBACK, [_("No network found: only this laptop can open the app.")])
    chosen = by_address.get(routed) or candidates[0]
    if len(candidates) == 1:
        return Choice(chosen.address, [])
    why = (_("the one with the route to the internet") if chosen.address == routed
           else _("the first one"))
    other = next(c.address for c in candidates if c.address != chosen.address)
    return Choice(chosen.address, [
        _("This laptop is on several networks; the app uses %(address)s (%(interface)s), "
          "%(why)s.") % {"address": chosen.address, "interface": chosen.interface, "why": why},
        _("Are the tablets on another one? Name its address: make venue ADDRESS=%(address)s")
        % {"address": other},
    ])


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




def banner(candidates: list[Candidate], choice: Choice, *, environ: dict[str, str], port: int,
           url: str) -> list[str]:
    """What the terminal shows above the console's QR code: the candidates, the chosen one
    marked, what the director should know about the choice, and the two addresses."""
    lines = [""]
    if candidates:
        lines += [_("Addresses of this laptop:"), *listing(candidates, choice.address)]
    lines += choice.notes
    if "SITE_URL" in environ and url != site_url(choice.address, port):
        lines.append(_("SITE_URL is set in the environment and wins: links and QR codes "
                       "start with %(url)s.") % {"url": url})
    tables, console = _("Stichliste for the tables:"), _("Director's console:")
    width = max(len(tables), len(console))
    return [*lines, "", f"{tables.ljust(width)} {url}/", f"{console.ljust(width)} {url}/console/",
            ""]


def main() -> None:
    environ = dict(os.environ)
    candidates = interface_candidates()
    choice = choose_address(candidates, environ.get("VENUE_ADDRESS", ""),
                            routed=lan_address())
    port = venue_port(environ)
    if "SECRET_KEY" not in environ:
        environ["SECRET_KEY"] = stored_secret_key()
    env = venue_environment(environ, address=choice.address, port=port,
                            secret_key=environ["SECRET_KEY"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True)
    print("\n".join(banner(candidates, choice, environ=environ, port=port,
                           url=env["SITE_URL"])))
    try:
        import segno

        segno.make(f"{env['SITE_URL']}/console/", error="m").terminal(compact=True)
    except ImportError:  # the QR code is a convenience; the address above is enough
        pass
    print(_("Tablets on the same network open the address above or scan a table card's "
            "QR code."))
    print(_("First evening? Create the director's account: %(command)s")
          % {"command": ".venv/bin/python manage.py createsuperuser"}, end="\n\n", flush=True)
    os.chdir(ROOT)
    args = venue_args(bind=f"0.0.0.0:{port}")
    os.execve(args[0], args, env)


if __name__ == "__main__":
    main()
