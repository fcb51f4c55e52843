"""Project-wide invariants: pure engines and pure modules stay free of Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports_django_after(module: str) -> bool:
    code = f"import sys, {module}; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip() == "True"


def test_importing_the_engines_does_not_import_django():
    assert _imports_django_after("games.engines") is False


def test_importing_seating_and_standings_does_not_import_django():
    assert _imports_django_after("tournaments.seating") is False
    assert _imports_django_after("tournaments.standings") is False
    assert _imports_django_after("tournaments.standings.teams") is False


def test_prizes_and_cash_do_not_import_django():
    assert _imports_django_after("prizes.payout") is False
    assert _imports_django_after("prizes.cash") is False
