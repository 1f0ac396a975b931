"""docs/deploy.md's example configuration runs: the systemd unit's two command lines, with the
environment file's settings (its database and Redis replaced by the test's), migrate a fresh
PostgreSQL database and start the server's processes, which answer over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import websockets

from .scale_helpers import fresh_pg, need_redis, redis_prefix
from .server_helpers import free_port

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "deploy"


def _env() -> dict[str, str]:
    got = {}
    for line in (EXAMPLE / "alhambra.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, value = line.split("=", 1)
            got[key] = value
    return got


def _command(key: str, env: dict[str, str]) -> list[str]:
    line = next(x for x in (EXAMPLE / "alhambra.service").read_text().splitlines() if x.startswith(key + "="))
    words = shlex.split(re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], line.split("=", 1)[1]))
    assert words[0] == "/opt/alhambra/bin/alhambra"
    return [sys.executable, "-m", "alhambra", *words[1:]]


def test_the_example_unit_migrates_and_serves_with_several_processes(tmp_path: Path) -> None:
    redis_url = need_redis()
    assert "nginx.conf" in (EXAMPLE.parents[1] / "docs" / "deploy.md").read_text()
    with fresh_pg() as url:
        env = {**_env(), "ALHAMBRA_DATABASE_URL": url, "ALHAMBRA_REDIS_URL": redis_url}
        env.update(ALHAMBRA_REDIS_PREFIX=redis_prefix(), ALHAMBRA_PORT=str(free_port()))
        pre = subprocess.run(_command("ExecStartPre", env), capture_output=True, text=True, timeout=120)
        assert pre.returncode == 0 and "upgraded from an empty database to revision" in pre.stdout, pre.stderr
        base = f"http://127.0.0.1:{env['ALHAMBRA_PORT']}"
        with open(tmp_path / "serve.log", "wb") as log:
            proc = subprocess.Popen(
                _command("ExecStart", env), stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1")
            )
            try:
                seen: set[str] = set()
                end = time.monotonic() + 180
                while len(seen) < int(env["ALHAMBRA_WORKERS"]):
                    assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
                    assert time.monotonic() < end, "the processes did not all answer"
                    try:
                        seen.add(httpx.get(f"{base}/api/health", timeout=2).json()["process"])
                    except (httpx.HTTPError, KeyError):
                        time.sleep(0.1)
                r = httpx.post(f"{base}/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
                tid = r.json()["table"]["id"]

                async def watch() -> int:
                    async with websockets.connect(f"ws://127.0.0.1:{env['ALHAMBRA_PORT']}/ws/tables/{tid}") as ws:
                        await ws.send(json.dumps({"type": "hello"}))
                        while True:  # a watched all-bot table plays
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                            if msg.get("version", 0) >= 3:
                                return int(msg["version"])

                assert asyncio.run(watch()) >= 3
            finally:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=60)
