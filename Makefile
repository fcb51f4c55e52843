# The README's commands. Only Python 3.11+ is needed; everything else goes into .venv.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
DEV_ENV := DEBUG=true

.PHONY: run venue test install lint

run: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py demo
	$(DEV_ENV) $(PY) manage.py runserver 127.0.0.1:8000

# Serve the app to the tablets on the club's Wi-Fi from this laptop (see README). It lists
# the laptop's addresses; name the one on the tablets' network: make venue ADDRESS=192.168.1.20
venue: install
	$(if $(ADDRESS),VENUE_ADDRESS='$(ADDRESS)' )$(PY) -m config.venue

# The suite runs on TEST_WORKERS pytest-xdist workers (4 measured best on 2 cores: the
# browser and server tests wait on other processes), then the tests marked `serial`, which
# cannot share the machine, one at a time. pytest's 5 ("no tests collected") is not a
# failure of one half when the other ran tests.
TEST_WORKERS ?= 4
test: install
	@parallel=0; serial=0; \
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not serial" $(PYTEST_ARGS) || parallel=$$?; \
	$(PY) -m pytest -p no:xdist -m serial $(PYTEST_ARGS) || serial=$$?; \
	if [ $$parallel -eq 5 ] && [ $$serial -eq 5 ]; then exit 5; fi; \
	for code in $$parallel $$serial; do \
	  if [ $$code -ne 0 ] && [ $$code -ne 5 ]; then exit $$code; fi; \
	done

lint: install
	$(VENV)/bin/ruff check .

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

# axe-core for the accessibility test (tests/browser/test_accessibility.py), pinned in
# package-lock.json; `npm ci` runs again only when node_modules is missing or the lock changed.
# Without npm the app installs and runs as before: the test skips (and fails under CI=true).
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --quiet --no-audit --no-fund && touch $@; \
	else \
	  echo "npm not found: skipping axe-core (node_modules); the accessibility test needs it"; \
	fi
