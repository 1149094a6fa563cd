"""Writes a supervisord configuration that runs the Procfile's processes on one machine: the
production topology without Docker (`make prod`; docs/production.md, "Without Docker").

    python ops/supervisor.py --dizin tmp/prod --port 8000 --web 2 --sockets 2 --worker 2

Each process kind of the Procfile (web, sockets, worker, beat; `release` is run before, by make)
becomes numbered supervisor programs with the Procfile's own command, so the commands live in
one place. Ports follow honcho's rule: web on PORT, PORT+1, ...; sockets on PORT+100, PORT+101, ...
Beat is always exactly one. supervisord restarts a program that dies and leaves the others
running; `supervisorctl -c DIZIN/supervisord.conf status` lists them.
"""
import argparse
import os
import shlex
from pathlib import Path

KOK = Path(__file__).resolve().parent.parent


def procfile(yol: Path = KOK / "Procfile") -> dict[str, str]:
    komutlar = {}
    for satir in yol.read_text().splitlines():
        if satir.strip() and not satir.lstrip().startswith("#"):
            ad, komut = satir.split(":", 1)
            komutlar[ad.strip()] = komut.strip()
    return komutlar


def yapilandirma(*, dizin: Path, port: int, web: int, sockets: int, worker: int) -> str:
    komutlar = procfile()
    dizin = dizin.resolve()
    # SIGTERM, then SIGKILL after this: gunicorn's graceful timeout (gunicorn.conf.py) and a margin,
    # so a stop or restart lets running requests and tasks finish.
    bekleme = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT") or 30) + 5
    parcalar = [
        "[supervisord]",
        "nodaemon=true",
        f"directory={KOK}",
        f"logfile={dizin / 'supervisord.log'}",
        f"pidfile={dizin / 'supervisord.pid'}",
        "",
        "[unix_http_server]",
        f"file={dizin / 'supervisor.sock'}",
        "",
        "[supervisorctl]",
        f"serverurl=unix://{dizin / 'supervisor.sock'}",
        "",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface",
    ]
    for sira, (tur, adet) in enumerate((("web", web), ("sockets", sockets), ("worker", worker), ("beat", 1))):
        for i in range(1, adet + 1):
            ortam = {"PORT": str(port + sira * 100 + i - 1), "SUREC_ADI": f"{tur}-{i}"}
            if tur == "worker":
                ortam["CELERY_HOSTNAME"] = f"worker-{i}@%h"  # two workers on one host need two names
            komut = "sh -c " + shlex.quote("exec " + komutlar[tur])
            parcalar += [
                "",
                f"[program:{tur}-{i}]",
                "command=" + komut.replace("%", "%%"),
                "environment=" + ",".join(f'{k}="{v}"' for k, v in ortam.items()).replace("%", "%%"),
                "autostart=true",
                "autorestart=true",
                "startsecs=2",
                "stopsignal=TERM",
                f"stopwaitsecs={bekleme}",
                "stopasgroup=true",
                "killasgroup=true",
                "redirect_stderr=true",
                "stdout_logfile=/dev/stdout",
                "stdout_logfile_maxbytes=0",
            ]
    return "\n".join(parcalar) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dizin", type=Path, default=KOK / "tmp" / "prod", help="where the config, socket and log go")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--web", type=int, default=2)
    p.add_argument("--sockets", type=int, default=2)
    p.add_argument("--worker", type=int, default=2)
    a = p.parse_args()
    a.dizin.mkdir(parents=True, exist_ok=True)
    hedef = a.dizin / "supervisord.conf"
    hedef.write_text(yapilandirma(dizin=a.dizin, port=a.port, web=a.web, sockets=a.sockets, worker=a.worker))
    print(hedef)


if __name__ == "__main__":
    main()
