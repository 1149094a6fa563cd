# The README's two commands: `make run` (service with demo data) and `make test` (the suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The largest WebSocket message uvicorn takes (`--ws-max-size`, bytes; its default is 16 MiB, read
# in full before the consumer sees it, and before any authentication). The largest legitimate
# client frame is the `kimlik` frame with a JWT or a visitor token, well under the consumers' own
# limit (CANLI_MAKS_CERCEVE_BAYT, 4096 bytes, answered with `hata` and 4429); 64 KiB leaves that
# answer to the consumers and has uvicorn cut anything bigger (close 1009) before buffering it.
# The README's production command and the live-server test fixture use the same value.
WS_MAX_SIZE ?= 65536
# Links in mails sent outside a request (ticket notifications, transcripts, unsubscribe links) are
# built from SITE_URL: `make run` points it at the address it serves (`PORT=8100 make run`), unless
# SITE_URL is set in the environment.
SITE_URL ?= http://$(HOST):$(PORT)
# The reloader watches the project's own folders only (the apps, settings, templates, static files,
# translations), never .venv, media/ or tmp/; with watchfiles (requirements.txt) it waits on inotify
# instead of polling every file.
RELOAD_DIRS := supportdesk templates static locale $(patsubst %/apps.py,%,$(wildcard */apps.py))
# Development settings (DEBUG=true, a random SECRET_KEY), written once and read by
# supportdesk/settings.py, so a bare `python manage.py ...` works in a checkout. Never deployed
# (.gitignore); production sets its variables in the environment.
ENV_FILE ?= .env

.PHONY: install env run test browser worker beat lint bench bench-canli clean

$(BIN)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.txt
	touch $@

install: $(BIN)/.installed

$(ENV_FILE):
	@$(PYTHON) -c 'import secrets, sys; open(sys.argv[1], "x").write("# Development settings written by make env; never used in production.\nDEBUG=true\nSECRET_KEY=" + secrets.token_urlsafe(50) + "\n")' $@
	@echo "$@ yazıldı: geliştirme ayarları (DEBUG=true, rastgele SECRET_KEY)"

env: $(ENV_FILE)

run: install $(ENV_FILE)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_verisi
	@echo "Gelen e-posta adresleri (python manage.py eposta_al < ileti.eml ile bir e-posta alınır):"
	@$(BIN)/python manage.py eposta_adresi
	@echo "Giden e-postalar $(CURDIR)/tmp/eposta/ klasörüne yazılır (EMAIL_URL ile SMTP'ye gönderilir)."
	@echo "Servis: http://$(HOST):$(PORT)/  (portal /portal/, API belgeleri /api/v1/docs/, demo sayfası /demo/)"
	@echo "Operatör konsolu: http://$(HOST):$(PORT)/panel/  (demo operatörleriyle giriş: yukarıdaki e-posta ve şifre)"
	SITE_URL=$(SITE_URL) $(BIN)/uvicorn supportdesk.asgi:application --host $(HOST) --port $(PORT) --ws-max-size $(WS_MAX_SIZE) \
	  --reload $(addprefix --reload-dir ,$(RELOAD_DIRS)) --reload-include '*.html' --lifespan off

# Headless Chromium for the browser tests comes from Debian's package (Playwright may not
# download its own browser here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else echo "chromium yok: tarayıcı testleri atlanacak"; fi; }

test: install browser
	$(BIN)/python manage.py makemigrations --check --dry-run --settings=supportdesk.test_settings >/dev/null
	$(BIN)/pytest

worker: install
	$(BIN)/celery -A supportdesk worker -l info

beat: install
	$(BIN)/celery -A supportdesk beat -l info

# Chat benchmark (gunicorn on PostgreSQL, 16 clients); see docs/performance.md.
bench: install
	$(BIN)/python bench/chat_bench.py

# Socket fan-out benchmark (issue 14): 500 operator sockets on one, then two uvicorn processes.
bench-canli: install
	$(BIN)/python bench/canli_bench.py --soket 500 --surec 1 --tur 30
	$(BIN)/python bench/canli_bench.py --soket 500 --surec 2 --tur 30

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles media
