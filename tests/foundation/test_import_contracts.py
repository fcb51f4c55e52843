"""The import-linter contracts of ``pyproject.toml`` hold, and they catch a wrong import.

The wrong imports are written into a copy of the project's packages (never into the
tree itself), and ``lint-imports`` runs on that copy: a real check, not a mock.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "api", "ratings", "leagues", "clublife", "archive", "prizes", "signup",
            "tournaments", "clubs", "games")
LINT = str(Path(sys.executable).with_name("lint-imports"))


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([LINT, "--no-cache", "--config", str(cwd / "pyproject.toml")],
                          cwd=cwd, capture_output=True, text=True, timeout=240,
                          env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"})


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_tree_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("module,line,contract", [
    ("clubs/wrong.py", "import tournaments.models\n",
     "Apps depend one way"),
    ("tournaments/wrong.py", "from clublife import selectors\n",
     "Apps depend one way"),
    ("tournaments/services/wrong.py", "from signup.mails import mail_queue\n",
     "Apps depend one way"),
    ("prizes/wrong.py", "from signup import models\n",
     "Apps depend one way"),
    ("prizes/wrong.py", "from archive import export\n",
     "Apps depend one way"),
    ("signup/services/wrong.py", "from signup.tasks import send_mail\n",
     "Sign-up's tasks call its services and mails"),
    ("tournaments/pages/wrong.py", "from api import permissions\n",
     "No module imports api except config.urls"),
    ("games/engines/wrong.py", "from django.utils import timezone\n",
     "Engines, seating, standings and the season ranking import no Django"),
    ("tournaments/standings/wrong.py", "from tournaments import models\n",
     "Engines, seating, standings and the season ranking import no Django"),
    ("tournaments/seating/wrong.py", "from games.engines import get_engine\n",
     "Seating works for any game from plain table sizes"),
])
def test_a_wrong_import_breaks_a_contract(copy, module, line, contract):
    assert lint(copy).returncode == 0  # the copy itself is clean
    (copy / module).write_text(f'"""A deliberately wrong import."""\n\n{line}')
    result = lint(copy)
    assert result.returncode == 1, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert contract in broken
    assert module.removesuffix(".py").replace("/", ".") in broken
