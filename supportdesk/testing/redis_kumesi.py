"""A real Redis Cluster of three primaries on loopback, for the tests and CI (issue 44, CONTRACT 26).

The machine's `redis-server` in cluster mode, one process per port, in a directory of its own
(configs, node tables, logs, pid files), joined by `redis-cli --cluster create` with no replicas;
ready once every node says `cluster_state:ok` and knows every slot. Its address is the form
`REDIS_URL` takes for a cluster: `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3`.

    python -m supportdesk.testing.redis_kumesi baslat DIR [PORT]   # prints the URL
    python -m supportdesk.testing.redis_kumesi durdur DIR

`.ci/kume` uses it to run the socket, limit, presence and pre-read tests on a cluster; `kume()` is
the same for a test that starts its own (and stops it, whatever the test did).
"""
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HOST = "127.0.0.1"
VARSAYILAN_PORT = 7301
DUGUM_SAYISI = 3
HAZIR_SURESI = 30.0


def url(portlar) -> str:
    return "redis+cluster://" + ",".join(f"{HOST}:{p}" for p in portlar)


def _komut(port: int, *args: str) -> str:
    return subprocess.run(["redis-cli", "-h", HOST, "-p", str(port), *args], capture_output=True, text=True,
                          timeout=10, check=False).stdout


def _acik_mi(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


def _bekle(kosul, sure: float, neden: str) -> None:
    son = time.monotonic() + sure
    while not kosul():
        if time.monotonic() > son:
            raise RuntimeError(neden)
        time.sleep(0.05)


def baslat(dizin, port: int = VARSAYILAN_PORT) -> str:
    """Start the cluster's three nodes on `port`..`port + 2` under `dizin` and join them; returns
    its URL. Ports already taken are refused (another run's cluster is never reused or joined)."""
    if not shutil.which("redis-server") or not shutil.which("redis-cli"):
        raise RuntimeError("redis-server ve redis-cli gerekli (Debian: redis-server, redis-tools).")
    dizin = Path(dizin)
    dizin.mkdir(parents=True, exist_ok=True)
    portlar = [port + i for i in range(DUGUM_SAYISI)]
    dolu = [p for p in portlar if _acik_mi(p)]
    if dolu:
        raise RuntimeError(f"Kümenin portları kullanımda: {dolu}")
    for p in portlar:
        subprocess.run([
            "redis-server", "--port", str(p), "--bind", HOST, "--cluster-enabled", "yes",
            "--cluster-config-file", f"nodes-{p}.conf", "--cluster-node-timeout", "2000",
            "--dir", str(dizin), "--save", "", "--appendonly", "no", "--daemonize", "yes",
            "--pidfile", str(dizin / f"{p}.pid"), "--logfile", str(dizin / f"{p}.log"),
        ], check=True, timeout=10)
    for p in portlar:
        _bekle(lambda p=p: "PONG" in _komut(p, "ping"), 10, f"Redis düğümü {p} açılmadı")
    subprocess.run(["redis-cli", "--cluster", "create", *(f"{HOST}:{p}" for p in portlar),
                    "--cluster-replicas", "0", "--cluster-yes"], check=True, timeout=60,
                   stdout=subprocess.DEVNULL)

    def hazir() -> bool:
        for p in portlar:
            bilgi = _komut(p, "cluster", "info")
            if "cluster_state:ok" not in bilgi or "cluster_slots_ok:16384" not in bilgi \
                    or f"cluster_known_nodes:{DUGUM_SAYISI}" not in bilgi:
                return False
        return True

    _bekle(hazir, HAZIR_SURESI, "Redis kümesi hazır olmadı (cluster_state:ok)")
    (dizin / "url").write_text(url(portlar))
    return url(portlar)


def durdur(dizin) -> None:
    """Stop every node started under `dizin` (by the pid files it wrote) and wait for them to go."""
    dizin = Path(dizin)
    for pid_dosyasi in dizin.glob("*.pid"):
        try:
            pid = int(pid_dosyasi.read_text().strip())
        except (OSError, ValueError):
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        son = time.monotonic() + 10
        while time.monotonic() < son:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def kume(dizin, port: int = VARSAYILAN_PORT):
    """A cluster for the length of the `with` block; its URL."""
    try:
        yield baslat(dizin, port)
    finally:
        durdur(dizin)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "baslat":
        print(baslat(argv[1], int(argv[2]) if len(argv) > 2 else VARSAYILAN_PORT))
        return 0
    if len(argv) == 2 and argv[0] == "durdur":
        durdur(argv[1])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
