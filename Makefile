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

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@
