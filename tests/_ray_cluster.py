"""A real Ray cluster on this machine: a head and worker nodes, each a separate `ray start --block` process.

Each node is its own process group, so a test can kill one node (its raylet, object store and
workers) the way a machine is lost, while the others play on. The cluster's files live in a
temporary folder of its own, and nothing here stops Ray processes it did not start.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

RAY = str(Path(sys.executable).with_name("ray"))


def node_ip() -> str:
    """The address Ray gives this machine's nodes (it turns 127.0.0.1 into this, so the head is asked there)."""
    from ray.util import get_node_ip_address

    return str(get_node_ip_address())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running cluster: its head's address, its token and its node processes (the head first).

    Ray clusters authenticate every connection with a token: drivers get it in `env`.
    """

    address: str
    token: str
    nodes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        """The environment a driver of this cluster runs in."""
        return cluster_env(self.token)

    def kill(self, index: int) -> None:
        """Kill node `index` and everything it started at once (SIGKILL to its process group)."""
        node = self.nodes[index]
        with suppress(ProcessLookupError):
            os.killpg(node.pid, signal.SIGKILL)
        node.wait(10)


def cluster_env(token: str) -> dict[str, str]:
    """The environment of a node or a driver of the cluster whose authentication token is `token`."""
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    env.pop("RAY_ADDRESS", None)
    return env


def _start(args: list[str], log: Path, token: str) -> subprocess.Popen[bytes]:
    env = cluster_env(token)
    with log.open("ab") as out:
        return subprocess.Popen(
            [RAY, "start", "--block", "--disable-usage-stats", *args],
            stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip


def alive_nodes(address: str, env: dict[str, str]) -> int:
    """How many nodes of the cluster at `address` are alive (asked in a process of its own)."""
    code = (
        "import ray, sys; ray.init(address=sys.argv[1], include_dashboard=False, log_to_driver=False);"
        "print(sum(1 for n in ray.nodes() if n['Alive']))"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code, address], capture_output=True, text=True, timeout=30,
            env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return 0
    return int(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 and out.stdout.strip() else 0


@contextmanager
def ray_cluster(folder: Path, workers: int = 1, cpus: int = 1, timeout: float = 90) -> Iterator[Cluster]:
    """A head and `workers` worker nodes of `cpus` CPUs each; stopped (all of them) on the way out."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    cluster = Cluster(f"{node_ip()}:{port}", secrets.token_hex(16))
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # Ray's socket paths must stay under 108 bytes
    try:
        cluster.nodes.append(
            _start(
                ["--head", f"--port={port}", f"--num-cpus={cpus}", "--include-dashboard=false", f"--temp-dir={temp}"],
                folder / "head.log",
                cluster.token,
            )
        )
        for i in range(workers):
            cluster.nodes.append(
                _start([f"--address={cluster.address}", f"--num-cpus={cpus}"], folder / f"worker{i}.log", cluster.token)
            )
        deadline = time.time() + timeout
        time.sleep(3)  # the head's port answers before its services do
        while alive_nodes(cluster.address, cluster.env) < workers + 1:
            if time.time() > deadline or any(node.poll() is not None for node in cluster.nodes):
                logs = "\n".join(p.read_text()[-2000:] for p in folder.glob("*.log"))
                raise RuntimeError(f"the Ray cluster did not come up:\n{logs}")
            time.sleep(1)
        yield cluster
    finally:
        for node in reversed(cluster.nodes):
            if node.poll() is None:
                try:
                    os.killpg(node.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for node in cluster.nodes:
            try:
                node.wait(5)
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(node.pid, signal.SIGKILL)
                node.wait(10)
        shutil.rmtree(temp, ignore_errors=True)
