"""Project-wide invariants: pure engines stay free of Django; the registry check works."""

import subprocess
import sys
from pathlib import Path

from games.apps import check_registry_matches_choices

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
    assert _imports_django_after("tournaments.prizes.payout") is False
    assert _imports_django_after("tournaments.prizes.cash") is False


def test_registry_and_game_choices_agree():
    assert check_registry_matches_choices() == []


def test_registry_check_reports_a_missing_engine(monkeypatch):
    from games import choices

    monkeypatch.setattr(choices, "GAME_CHOICES", [*choices.GAME_CHOICES, ("tarock", "Tarock")])
    errors = check_registry_matches_choices()
    assert [e.id for e in errors] == ["games.E001"]
    assert "tarock" in errors[0].hint
