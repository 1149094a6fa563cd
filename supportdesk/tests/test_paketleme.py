"""Packaging checked without Docker (no image can be pulled here): the dependency locks, the
Dockerfile's key properties, compose.yaml against the Procfile, .dockerignore, gunicorn's settings
from the environment, and collectstatic's hashed manifest on a first run."""
import os
import re
import shlex
import subprocess
import sys
from importlib import util
from pathlib import Path

import pytest
import yaml
from django.conf import settings

KOK = Path(settings.BASE_DIR)
GELISTIRME_ARACLARI = {"pytest", "pytest-django", "pytest-xdist", "playwright", "aiosmtpd", "factory-boy", "faker",
                       "ruff", "supervisor", "honcho", "pip-tools"}
SUREC_TURLERI = ("web", "sockets", "worker", "beat")


def _kilit(ad: str) -> dict[str, tuple[str, frozenset]]:
    """name -> (version, hashes) of a pip-compile lock; every requirement must carry hashes."""
    paketler, ad_, surum, ozetler = {}, None, None, set()
    for satir in (KOK / "requirements" / ad).read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", satir):
            if ad_:
                paketler[ad_] = (surum, frozenset(ozetler))
            ad_, surum, ozetler = m.group(1).lower().replace("_", "-"), m.group(2), set()
        ozetler.update(re.findall(r"--hash=sha256:([0-9a-f]{64})", satir))
        assert not satir.startswith(("-e ", "--index-url", "--find-links", "--extra-index-url", "git+")), satir
    paketler[ad_] = (surum, frozenset(ozetler))
    return paketler


def _girdi(ad: str) -> dict[str, str]:
    pinler = {}
    for satir in (KOK / "requirements" / ad).read_text().splitlines():
        satir = satir.split("#")[0].strip()
        if not satir or satir.startswith(("-r ", "-c ")):
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)(?:\[[A-Za-z0-9_,\-]+\])?==([A-Za-z0-9.]+)", satir)  # extras allowed
        assert m, f"{ad}: tam sürümle sabitlenmemiş satır: {satir!r}"
        pinler[m.group(1).lower().replace("_", "-")] = m.group(2)
    return pinler


def _ops_supervisor():
    # ops/supervisor.py by path: not the supervisor package. Its Procfile reader is the one
    # `make prod` runs, so the tests read the Procfile through it too.
    spec = util.spec_from_file_location("ops_supervisor", KOK / "ops" / "supervisor.py")
    modul = util.module_from_spec(spec)
    spec.loader.exec_module(modul)
    return modul


def _procfile() -> dict[str, str]:
    return _ops_supervisor().procfile()


# --- dependencies -----------------------------------------------------------------------------
def test_kilitler_hashli_calisma_zamani_gelistirmenin_alt_kumesi_ve_test_araci_icermez():
    base, dev = _kilit("base.txt"), _kilit("dev.txt")
    for ad, (surum, ozetler) in {**base, **dev}.items():
        assert ozetler, f"{ad}=={surum}: hash yok"
    for ad, (surum, ozetler) in base.items():
        assert dev[ad] == (surum, ozetler), f"{ad}: base.txt ile dev.txt farklı"
    assert not GELISTIRME_ARACLARI & set(base), GELISTIRME_ARACLARI & set(base)
    assert {"pytest", "playwright", "aiosmtpd", "ruff", "faker", "factory-boy", "supervisor"} <= set(dev)
    # every direct pin of the .in files is locked at exactly that version
    for girdi, kilit in (("base.in", base), ("dev.in", dev)):
        for ad, surum in _girdi(girdi).items():
            assert kilit.get(ad, ("yok",))[0] == surum, f"{girdi}: {ad}=={surum}, kilitte {kilit.get(ad)}"
    assert set(_girdi("dev.in")) & set(_girdi("base.in")) == set()


def test_kurulumlar_hashle_ve_dogru_kilitten():
    makefile = (KOK / "Makefile").read_text()
    assert re.search(r"pip install -q --require-hashes -r requirements/dev\.txt", makefile)
    assert re.search(r"^\$\(BIN\)/\.installed: requirements/dev\.txt", makefile, re.M)
    dockerfile = (KOK / "Dockerfile").read_text()
    assert re.search(r"pip install --require-hashes -r \S*requirements/base\.txt", dockerfile)
    assert "dev.txt" not in dockerfile and "dev.in" not in dockerfile
    assert "-r requirements/dev.txt" in (KOK / "requirements.txt").read_text()
    assert "make test" in (KOK / ".ci" / "run").read_text()


# --- Dockerfile and .dockerignore ---------------------------------------------------------------
def _asamalar() -> list[tuple[str, list[str]]]:
    """(FROM line, instructions) per stage, continuation lines joined."""
    metin = re.sub(r"\\\n\s*", " ", (KOK / "Dockerfile").read_text())
    asamalar = []
    for satir in metin.splitlines():
        satir = satir.strip()
        if not satir or satir.startswith("#"):
            continue
        if satir.upper().startswith("FROM "):
            asamalar.append((satir, []))
        elif asamalar:
            asamalar[-1][1].append(satir)
    return asamalar


def test_dockerfile_cok_asamali_root_olmayan_kullanici_derlenmis_statik_ve_katalog():
    asamalar = _asamalar()
    assert len(asamalar) >= 2 and " AS build" in asamalar[0][0]
    insa, son = asamalar[0][1], asamalar[-1][1]
    insa_run = " ".join(s for s in insa if s.startswith("RUN "))
    assert "manage.py collectstatic --noinput" in insa_run and "staticfiles.json" in insa_run
    assert "manage.py compilemessages" in insa_run
    assert any(s.startswith("COPY --from=build /opt/venv") for s in son)
    kullanicilar = [s.split()[1] for s in son if s.startswith("USER ")]
    assert kullanicilar and kullanicilar[-1].split(":")[0] not in ("root", "0")
    assert any(s.startswith("HEALTHCHECK ") for s in son) and any(s.startswith("CMD ") for s in son)
    tum = " ".join(i for _, ins in asamalar for i in ins)
    for arac in ("pytest", "playwright", "aiosmtpd", "ruff", "faker"):
        assert arac not in tum


def test_metrik_klasoru_imajin_kullanicisinin_ve_compose_ayni_klasoru_kullanir(compose):
    # A volume mounted on a folder the image does not have starts root's, and the service user
    # could not write its counters there (issue 37): the image makes it and gives it to that user.
    son = _asamalar()[-1][1]
    run = " ".join(s for s in son if s.startswith("RUN "))
    kullanici = [s.split()[1] for s in son if s.startswith("USER ")][-1].split(":")[0]
    klasor = "/run/supportdesk/prometheus"
    assert "mkdir -p" in run and klasor in run.split("mkdir -p", 1)[1].split("&&")[0], run
    assert re.search(rf"chown -R {kullanici}:{kullanici} [^&]*/run/supportdesk\b", run), run
    ortam = " ".join(s for s in son if s.startswith("ENV "))
    assert f"PROMETHEUS_MULTIPROC_DIR={klasor}" in ortam, ortam
    for ad in SUREC_TURLERI:
        assert compose["services"][ad]["environment"]["PROMETHEUS_MULTIPROC_DIR"] == klasor, ad
        assert f"metrics:{klasor}" in compose["services"][ad]["volumes"], ad


def test_dockerignore_yerel_ayari_ve_test_agacini_disarida_birakir():
    desenler = {s.strip() for s in (KOK / ".dockerignore").read_text().splitlines() if s.strip() and not s.startswith("#")}
    assert {".git", ".venv", ".env", "*.env", "/media", "/staticfiles", "/tmp"} <= desenler
    assert {"**/tests", "supportdesk/testing", "bench", "conftest.py"} <= desenler


# --- compose.yaml -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((KOK / "compose.yaml").read_text())


def test_compose_servisleri_bagimliliklar_saglik_ve_birimler(compose):
    s = compose["services"]
    assert set(s) == {"db", "redis", "migrate", "web", "sockets", "worker", "beat"}
    assert s["db"]["image"].startswith("postgres:") and s["redis"]["image"].startswith("redis:")
    for ad in ("db", "redis", "web", "sockets", "worker"):
        assert s[ad]["healthcheck"]["test"], ad
        assert not s[ad]["healthcheck"].get("disable"), ad
    for ad in SUREC_TURLERI:
        assert s[ad]["depends_on"] == {"db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"},
                                       "migrate": {"condition": "service_completed_successfully"}}, ad
        assert s[ad]["restart"] == "unless-stopped" and s[ad]["image"] == s["migrate"]["image"], ad
        assert "media:/var/lib/supportdesk/media" in s[ad]["volumes"], ad
        ortam = s[ad]["environment"]
        assert ortam["DEBUG"] == "false" and ortam["REDIS_URL"].startswith("redis://redis:"), ad
        assert ortam["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in ortam["DATABASE_URL"], ad
    assert s["migrate"]["restart"] == "no"
    assert s["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"}}
    assert s["beat"]["deploy"]["replicas"] == 1
    assert "replicas" not in s["worker"].get("deploy", {}) or s["worker"]["deploy"]["replicas"] >= 1
    # published only on loopback: the reverse proxy on the host is the way in
    assert s["web"]["ports"] == ["127.0.0.1:8000:8000"] and s["sockets"]["ports"] == ["127.0.0.1:8001:8001"]
    assert s["web"]["environment"]["PORT"] == "8000" and s["sockets"]["environment"]["PORT"] == "8001"
    assert any(v.startswith("pgdata:/var/lib/postgresql/data") for v in s["db"]["volumes"])
    assert any(v.startswith("redisdata:/data") for v in s["redis"]["volumes"])
    assert set(compose["volumes"]) == {"pgdata", "redisdata", "media", "metrics"}


def test_compose_komutlari_procfile_ile_ayni(compose):
    procfile = _procfile()
    assert set(procfile) == {"release", *SUREC_TURLERI}
    s = compose["services"]
    for ad, komut in (*((t, procfile[t]) for t in SUREC_TURLERI), ("migrate", procfile["release"])):
        sh, c, metin = s[ad]["command"]
        assert (sh, c) == ("sh", "-c") and metin.startswith("exec "), ad
        # `$$` in compose.yaml is a `$` for the container's shell
        assert metin[len("exec "):].replace("$$", "$") == komut, ad
        shlex.split(komut)  # one shell command line
    assert procfile["web"].startswith("gunicorn supportdesk.wsgi")
    assert procfile["sockets"].startswith("uvicorn supportdesk.asgi:application") and "--lifespan off" in procfile["sockets"]
    assert procfile["worker"].startswith("celery -A supportdesk worker")
    assert procfile["beat"].startswith("celery -A supportdesk beat")


def test_supervisor_yapilandirmasi_procfile_komutlarini_kullanir(tmp_path):
    metin = _ops_supervisor().yapilandirma(dizin=tmp_path, port=9000, web=2, sockets=3, worker=2)
    programlar = re.findall(r"^\[program:(\S+)\]", metin, re.M)
    assert programlar == ["web-1", "web-2", "sockets-1", "sockets-2", "sockets-3", "worker-1", "worker-2", "beat-1"]
    assert 'PORT="9001"' in metin and 'PORT="9102"' in metin
    assert "exec " + _procfile()["web"] in metin and 'CELERY_HOSTNAME="worker-2@%%h"' in metin


# --- gunicorn settings from the environment -------------------------------------------------------
def _gunicorn_ayarlari(**ortam) -> dict[str, str]:
    temiz = {k: v for k, v in os.environ.items() if not k.startswith(("GUNICORN", "WEB_CONCURRENCY", "PORT", "BIND_HOST"))}
    cikti = subprocess.run([str(Path(sys.executable).parent / "gunicorn"), "--print-config", "supportdesk.wsgi"],
                           cwd=KOK, env={**temiz, **ortam}, capture_output=True, text=True, timeout=60)
    assert cikti.returncode == 0, cikti.stderr
    return dict(re.findall(r"^(\w+)\s+= (.*)$", cikti.stdout, re.M))


def test_gunicorn_ayarlari_ortamdan_varsayilanlar_ve_istek_satiri_siniri():
    v = _gunicorn_ayarlari()
    assert v["bind"] == "['127.0.0.1:8000']" and v["worker_class"] == "sync" and v["timeout"] == "30"
    assert v["workers"] == str(os.cpu_count() * 2 + 1) and v["accesslog"] == "None"
    assert v["limit_request_line"] == "0" and v["control_socket_disable"] == "True"
    v = _gunicorn_ayarlari(PORT="5000")
    assert v["bind"] == "['0.0.0.0:5000']"
    v = _gunicorn_ayarlari(PORT="5000", BIND_HOST="127.0.0.1", WEB_CONCURRENCY="3", GUNICORN_TIMEOUT="45",
                           GUNICORN_ACCESS_LOG="-", GUNICORN_WORKER_CLASS="gthread", GUNICORN_THREADS="4",
                           GUNICORN_GRACEFUL_TIMEOUT="10", GUNICORN_KEEPALIVE="5", GUNICORN_MAX_REQUESTS="1000")
    assert (v["bind"], v["workers"], v["timeout"], v["accesslog"]) == ("['127.0.0.1:5000']", "3", "45", "-")
    assert (v["worker_class"], v["threads"], v["graceful_timeout"], v["keepalive"], v["max_requests"]) == \
        ("gthread", "4", "10", "5", "1000")
    assert _gunicorn_ayarlari(GUNICORN_BIND="unix:/tmp/x.sock", PORT="5000")["bind"] == "['unix:/tmp/x.sock']"
    assert v["limit_request_line"] == "0"


def test_collectstatic_ilk_calismada_hashli_manifest_yazar_ve_static_onu_kullanir(tmp_path):
    ortam = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "DEBUG": "false", "SECRET_KEY": "k" * 50,
             "STATIC_ROOT": str(tmp_path / "static"), "DJANGO_ENV_FILE": "/dev/null"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=KOK, env=ortam, check=True,
                   timeout=120)
    assert (tmp_path / "static" / "staticfiles.json").exists()
    kod = ("from django.templatetags.static import static; print(static('widget/widget.js'))")
    adres = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {kod}"], cwd=KOK, env=ortam,
                           check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    assert re.fullmatch(r"/static/widget/widget\.[0-9a-f]{12}\.js", adres), adres
    assert (tmp_path / "static" / adres.removeprefix("/static/")).exists()
    assert (tmp_path / "static" / (adres.removeprefix("/static/") + ".gz")).exists()


def _saniye(sure: str) -> float:
    """A compose duration (`35s`, `1m30s`) in seconds."""
    birim = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    parcalar = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", sure)
    assert parcalar and "".join(a + b for a, b in parcalar) == sure, sure
    return sum(float(a) * birim[b] for a, b in parcalar)


def test_durdurma_suresi_gunicornun_zarif_kapanisindan_uzun(compose, tmp_path):
    """A stop (compose, supervisord) waits longer than gunicorn lets running requests finish, so
    SIGKILL never cuts them: compose's `stop_grace_period` and `make prod`'s `stopwaitsecs`."""
    zarif = float(_gunicorn_ayarlari()["graceful_timeout"])
    for ad in SUREC_TURLERI:
        assert _saniye(compose["services"][ad]["stop_grace_period"]) > zarif, ad
    for ortam, beklenen in (({}, zarif), ({"GUNICORN_GRACEFUL_TIMEOUT": "90"}, 90)):
        with pytest.MonkeyPatch.context() as mp:
            for ad, deger in ortam.items():
                mp.setenv(ad, deger)
            metin = _ops_supervisor().yapilandirma(dizin=tmp_path, port=9000, web=1, sockets=1, worker=1)
        bekleme = {int(s) for s in re.findall(r"^stopwaitsecs=(\d+)$", metin, re.M)}
        assert bekleme and min(bekleme) > beklenen, metin
