"""How the app is served, said once: the image and docker compose run ``python -m
config.serve``, ``make venue`` runs the venue's variant, and the production smoke test in
the suite (``tests/system/test_production.py``) starts both exactly so.

- production: gunicorn with ``WEB_WORKERS`` worker processes (default 3) of
  ``WEB_THREADS`` threads each (default 1: synchronous workers), ``WEB_NICE`` lower in
  priority than the machine's other processes (default 0), on
  ``$HOST:$PORT`` (default ``0.0.0.0:8000``), static files collected at build time
  (``python manage.py collectstatic`` with ``DEBUG=false``), Redis and a Celery worker
  beside it; without ``REDIS_URL`` one process with the threads of all, as the workers
  would share no versions of the live answers (each its own local-memory cache);
- venue: one process with threads, so the in-process tasks and the in-memory cache are
  shared, serving the static files from the source folders (no build step on a laptop).

gunicorn reads ``gunicorn.conf.py`` in the project folder for what both share.

docker compose puts nginx in front (``deploy/nginx``): three pools of these workers, one
for the tables' entry, one for the public answers the proxy keeps, one for the rest;
``proxy_files`` and ``proxy_args`` start the same nginx outside a container (the system
test, the championship bench).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def gunicorn_path() -> str:
    """The gunicorn installed beside this Python (the venv's, or the image's)."""
    return str(Path(sys.executable).with_name("gunicorn"))


def _gunicorn(*args: str) -> list[str]:
    # gunicorn.conf.py: its request-line and header limits lie above the API's, so that the
    # API answers those errors as JSON (named, since the server may start elsewhere). No
    # access log of gunicorn's: one line per request is the app's (config.request_log,
    # with the request id, user and table), as behind the proxy, which logs only errors;
    # a second line cost every phone's poll some 60 µs
    return [gunicorn_path(), "config.wsgi", "--config", str(ROOT / "gunicorn.conf.py"),
            *args]


def production_args(*, bind: str, workers: int, threads: int = 1) -> list[str]:
    """``threads`` above 1: gunicorn's threaded workers (``gthread``), each answering that
    many requests at once and keeping a phone's connection open between its polls; 1:
    the synchronous workers, one request at a time per process."""
    if threads == 1:
        return _gunicorn("--bind", bind, "--workers", str(workers))
    return _gunicorn("--bind", bind, "--workers", str(workers), "--threads", str(threads),
                     "--worker-class", "gthread")


def venue_args(*, bind: str) -> list[str]:
    return _gunicorn("--bind", bind, "--workers", "1", "--threads", "8",
                     "--worker-class", "gthread")


PROXY = ROOT / "deploy" / "nginx"
# the pub/sub module deploy/nginx/nginx.conf loads (Debian's libnginx-mod-nchan)
NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so"
# where the official nginx image's entrypoint writes the filled-in template
_SITE = "/etc/nginx/conf.d/stichliste.conf"


def proxy_files(folder: Path, *, port: int, web: str | list[str], entry: str | list[str],
                board: str | list[str], push: int) -> Path:
    """The proxy's configuration in ``folder``, as the proxy's image makes it from
    ``deploy/nginx``: the template filled in (``${NAME}`` of the names given only, as the
    image's envsubst does) and the main file including it. Returns the main file.
    ``web``, ``entry`` and ``board`` name one server or several (here each its own port;
    in compose one name that resolves to several containers)."""
    def servers(named: str | list[str]) -> str:
        return "; server ".join([named] if isinstance(named, str) else named)

    values = {"PROXY_PORT": f"127.0.0.1:{port}", "WEB_UPSTREAM": servers(web),
              "ENTRY_UPSTREAM": servers(entry), "BOARD_UPSTREAM": servers(board),
              "PUSH_PORT": f"127.0.0.1:{push}"}
    template = (PROXY / "templates" / "stichliste.conf.template").read_text()
    site = re.sub(r"\$\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "stichliste.conf").write_text(site)
    main = (PROXY / "nginx.conf").read_text()
    assert _SITE in main, "deploy/nginx/nginx.conf no longer includes the template"
    assert f"load_module {NCHAN_MODULE};" in main, "deploy/nginx/nginx.conf loads another"
    path = folder / "nginx.conf"
    path.write_text(main.replace(_SITE, str(folder / "stichliste.conf")))
    return path


def nginx_path() -> str | None:
    """nginx on this machine (Debian puts it in /usr/sbin, outside a user's PATH)."""
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    return found


def proxy_args(main: Path) -> list[str]:
    """nginx in the foreground with ``main`` (``proxy_files``), its files beside it; run
    by root (a test or bench here), its workers stay root to use that folder."""
    folder = main.parent
    settings = f"daemon off; pid {folder / 'nginx.pid'};"
    if os.geteuid() == 0:
        settings += " user root;"
    return [nginx_path() or "nginx", "-p", str(folder), "-c", str(main),
            "-e", str(folder / "error.log"), "-g", settings]


def number_from(environ: dict[str, str], name: str, default: int, top: int, *,
                low: int = 1) -> int:
    """``environ[name]`` as a whole number from ``low`` to ``top`` (ASCII digits: ``"²"``
    passes ``isdigit``), or ``default`` when unset; anything else stops the start, naming
    it."""
    raw = environ.get(name, "").strip() or str(default)
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= top:
        raise SystemExit(f"{name}={raw!r} is not a whole number from {low} to {top}")
    return int(raw)


def lowered(nice: int) -> None:
    """Lower this process's priority by ``nice`` (``WEB_NICE``; its children inherit it):
    the pool of pages and polls yields the processor to the tables' entry when both want
    it. On a machine that the phones' polls keep busy, the entry's workers otherwise got
    their even share of the cores only, less than 60 deals a second need, and a deal
    waited 13 s (bench/README)."""
    if nice:
        os.nice(nice)


def main() -> None:
    environ = dict(os.environ)
    host = environ.get("HOST", "").strip() or "0.0.0.0"
    port = number_from(environ, "PORT", 8000, 65535)
    workers = number_from(environ, "WEB_WORKERS", 3, 64)
    threads = number_from(environ, "WEB_THREADS", 1, 64)
    nice = number_from(environ, "WEB_NICE", 0, 19, low=0)
    if workers > 1 and not environ.get("REDIS_URL", "").strip():
        # without Redis each process would keep versions of its own (tournaments.freshness:
        # the local-memory cache) and answer 304 to a phone for what another changed
        print(f"config.serve: without REDIS_URL one worker process with {workers * threads} "
              "threads instead of WEB_WORKERS processes, so that they share the live "
              "answers' versions", file=sys.stderr)
        workers, threads = 1, workers * threads
    args = production_args(bind=f"{host}:{port}", workers=workers, threads=threads)
    os.chdir(ROOT)
    lowered(nice)
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
