"""Benchmark tournaments on a real Ray cluster of separate `ray start` nodes on this machine.

    python benchmarks/bench_cluster.py [--games 200] [--kill-after 50] [--repeats 3]

Each repeat plays the same tournament (heuristic seats on guardian7, `--games` games) three ways,
through `lycan tournament --executor ray --ray-address`, each on a fresh cluster:
1. one node with 2 CPUs (two games at once);
2. two nodes (a head and a worker) with 1 CPU each (two games at once, one per node);
3. the same two nodes, the worker killed (SIGKILL to its process group: raylet, object store
   and game workers) once `--kill-after` games are stored.
Reported: wall seconds and games per second of each, the two-node/one-node throughput ratio,
games per node, and for the run with the kill: games stored and distinct game ids (every game
once: none lost with the node, none stored twice).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _ray_cluster import ray_cluster
from lycan.store import GameStore
from test_arena import CLUSTER_RUN


def play(folder: Path, workers: int, cpus: int, games: int, kill_after: int | None) -> dict[str, object]:
    config = folder / "cluster.yaml"
    config.write_text(CLUSTER_RUN.format(games=games))
    db = folder / "cluster.db"
    with ray_cluster(folder / "nodes", workers=workers, cpus=cpus) as cluster:
        started = time.monotonic()
        run = subprocess.Popen(
            [sys.executable, "-m", "lycan", "tournament", str(config), "--db", str(db), "--executor", "ray",
             "--ray-address", cluster.address],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=cluster.env,
        )  # fmt: skip
        killed_at = None
        while run.poll() is None:
            if kill_after is not None and killed_at is None and db.exists():
                with GameStore(db) as store:
                    done = len(store.game_ids(run="cluster"))
                if done >= kill_after:
                    cluster.kill(1)
                    killed_at = done
            time.sleep(0.2)
        seconds = time.monotonic() - started
        assert run.returncode == 0, f"the tournament failed ({run.returncode})"
    with GameStore(db) as store:
        records = list(store.iter_records(run="cluster"))
    ids = [r.game_id for r in records]
    return {
        "seconds": seconds,
        "stored": len(ids),
        "distinct": len(set(ids)),
        "nodes": sorted(collections.Counter(str(r.meta.get("ray_node"))[:8] for r in records).values()),
        "killed_at": killed_at,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--kill-after", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ratios = []
    for repeat in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            (base / "one").mkdir()
            (base / "two").mkdir()
            (base / "kill").mkdir()
            one = play(base / "one", workers=0, cpus=2, games=args.games, kill_after=None)
            two = play(base / "two", workers=1, cpus=1, games=args.games, kill_after=None)
            kill = play(base / "kill", workers=1, cpus=1, games=args.games, kill_after=args.kill_after)
        ratio = float(one["seconds"]) / float(two["seconds"])  # type: ignore[arg-type]
        ratios.append(ratio)
        for name, r in (("one node, 2 CPUs", one), ("two nodes, 1 CPU each", two), ("two nodes, worker killed", kill)):
            print(f"repeat {repeat}: {name}: {r['seconds']:.1f} s, {args.games / float(r['seconds']):.1f} games/s, "  # type: ignore[arg-type]
                  f"stored {r['stored']}, distinct {r['distinct']}, games per node {r['nodes']}"
                  + (f", killed after {r['killed_at']}" if r["killed_at"] else ""), flush=True)  # fmt: skip
        print(f"repeat {repeat}: two-node throughput / one-node throughput = {ratio:.2f}", flush=True)
    print(f"median two-node / one-node throughput over {args.repeats} repeats: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
