"""The benchmarks stay a runnable package: each runs as a module from the project root
without editing ``sys.path``, on inputs small enough for the suite (no figure is checked:
speed belongs to the benches, not to tests)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_no_bench_edits_the_import_path():
    for path in (ROOT / "bench").glob("*.py"):
        assert "sys.path" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("module,args,expect", [
    ("bench.bench_seating", ["--players", "60", "--repeat", "1"], "repeated pairs in round 3"),
    ("bench.bench_skat_engine", ["300"], "ratio (measured / baseline time)"),
    ("bench.bench_engines", ["300"], "labatarde"),
])
def test_quick_benches_run_as_modules(module, args, expect):
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert expect in done.stdout


def test_the_database_bench_loads_django_only_when_run():
    # its environment defaults must be in place before Django reads the settings
    done = subprocess.run(
        [sys.executable, "-c", "import sys, bench.bench_standings as b; "
         "assert callable(b.main); assert 'django' not in sys.modules, 'django'"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_bench_database_must_be_named_for_the_bench():
    from bench.common import database_url_parts

    assert database_url_parts("postgres://u:p@db:5433/x_bench")["dbname"] == "x_bench"
    for url in ("postgres://u@db/stichliste", "sqlite:///bench.db"):
        with pytest.raises(SystemExit):
            database_url_parts(url)
