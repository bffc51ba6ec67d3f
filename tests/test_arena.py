import collections
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from lycan.arena import (
    LocalExecutor,
    RayExecutor,
    load_config,
    plan,
    run_tournament,
)
from lycan.rules import ConfigError, Role

sys.path.insert(0, str(Path(__file__).parent))
from _tiny_store import TinyStore

TESTS = Path(__file__).parent


def test_config_errors_are_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "t.yaml"
    bad.write_text("run: x\nsettings:\n  - rules: guardian5\n    village: nosuchagent\n    werewolf: random\n")
    with pytest.raises(ConfigError, match=r"settings\.0\.village.*unknown agent type 'nosuchagent'"):
        load_config(bad)
    bad.write_text("run: x\nsettings:\n  - rules: guardian5\n    seats: [random, random]\n")
    with pytest.raises(ConfigError, match="guardian5 has 5 seats but the lineup lists 2"):
        load_config(bad)
    with pytest.raises(ConfigError, match="preset"):
        load_config(tmp_path / "missing.yaml")
    toml = tmp_path / "t.toml"
    toml.write_text('run = "r"\ngames = 3\n[[settings]]\nrules = "guardian5"\nvillage = "random"\nwerewolf = "random"')
    assert load_config(toml).games == 3
    assert load_config("smoke").run == "smoke"


def test_plan_rotates_roles_and_mirrors_teams() -> None:
    cfg = load_config(
        {
            "run": "r",
            "games": 10,
            "settings": [
                {"name": "rot", "rules": "aiwolf5", "seats": [{"agent": "random", "label": f"p{i}"} for i in range(5)]},
                {
                    "name": "teams",
                    "rules": "guardian7",
                    "village": {"agent": "random", "label": "A"},
                    "werewolf": "random",
                },
            ],
        }
    )
    jobs = plan(cfg)
    assert len(jobs) == 10 + 20
    assert len({j.game_id for j in jobs}) == 30
    assert [j.game_id for j in plan(cfg)] == [j.game_id for j in jobs]  # deterministic
    from lycan.engine import Game

    roles: dict[str, collections.Counter[Role]] = collections.defaultdict(collections.Counter)
    seats: dict[str, set[int]] = collections.defaultdict(set)
    for j in jobs[:10]:
        deal = Game(j.rules, j.seed).roles
        for seat, spec in enumerate(j.seats):
            roles[spec.name][deal[seat]] += 1
            seats[spec.name].add(seat)
    for name in ("p0", "p1", "p2", "p3", "p4"):  # aiwolf5 deck: werewolf, possessed, seer, 2 villagers
        assert roles[name] == {Role.WEREWOLF: 2, Role.POSSESSED: 2, Role.SEER: 2, Role.VILLAGER: 4}
        assert len(seats[name]) >= 2  # seats follow the random deal, not a fixed order
    first, mirror = jobs[10], jobs[20]
    assert first.seed == mirror.seed
    assert [s.name for s in first.seats] == ["random" if s.name == "A" else "A" for s in mirror.seats]


def test_local_tournament_resumes_and_skips(tmp_path: Path) -> None:
    store = TinyStore(tmp_path / "db.sqlite")
    cfg = load_config("smoke")
    first = run_tournament(cfg, store=store, executor=LocalExecutor(concurrency=3), progress=False)
    assert (first.planned, first.skipped, first.played) == (4, 0, 4)
    again = run_tournament(cfg, store=store, executor="local", progress=True)
    assert (again.skipped, again.played) == (4, 0)
    assert store.rows("smoke") == 4
    recs = list(store.iter_records("smoke"))
    assert {r.meta["setting"] for r in recs} == {"random-guardian5"}
    assert all(r.probe_days == (2,) and "probe_days" not in r.meta for r in recs)
    store.close()


def test_process_pool_executor(tmp_path: Path) -> None:
    store = TinyStore(tmp_path / "db.sqlite")
    res = run_tournament("smoke", store=store, executor=LocalExecutor(processes=2), progress=False)
    assert res.played == 4 and len(store.game_ids("smoke")) == 4
    store.close()


SCRIPT = """
import asyncio, sys
sys.path.insert(0, {tests!r})
from _tiny_store import TinyStore
from lycan.agents import RandomAgent, register
from lycan.arena import LocalExecutor, load_config, run_tournament


class Slow(RandomAgent):
    async def act(self, view, request):
        await asyncio.sleep(0.01)
        return self.decide(view, request)


register("slow", Slow)
cfg = load_config({{"run": "kill", "games": 12, "settings": [
    {{"name": "slow", "rules": "guardian5", "village": "slow", "werewolf": "random"}}]}})
res = run_tournament(cfg, store=TinyStore({db!r}), executor=LocalExecutor(concurrency=3), progress=False,
                     on_record=lambda r: print("saved", r.game_id, flush=True))
print("done", res.skipped, res.played, flush=True)
"""


def test_sigkill_mid_run_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "kill.sqlite"
    script = tmp_path / "play.py"
    script.write_text(textwrap.dedent(SCRIPT.format(tests=str(TESTS), db=str(db))))
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    saved = 0
    deadline = time.monotonic() + 30
    while saved < 4 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        saved += line.startswith("saved")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert saved >= 4
    store = TinyStore(db)
    after_kill = store.rows("kill")
    assert 4 <= after_kill < 24
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
    last = out.stdout.strip().splitlines()[-1].split()
    assert last[0] == "done" and int(last[1]) == after_kill and int(last[1]) + int(last[2]) == 24
    assert store.rows("kill") == 24 and len(store.game_ids("kill")) == 24
    assert all(r.winner in ("village", "werewolf") for r in store.iter_records("kill"))
    store.close()


def test_ray_executor(tmp_path: Path) -> None:
    ray: Any = pytest.importorskip("ray")
    store = TinyStore(tmp_path / "db.sqlite")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        res = run_tournament("smoke", store=store, executor=RayExecutor(max_in_flight=3), progress=False)
        # a node without the model a seat plays on: one sentence naming the model, nothing stored
        missing = tmp_path / "nowhere" / "model.gguf"
        config = {"run": "nomodel", "games": 1, "settings": [{"name": "s", "rules": "aiwolf5",
                  "village": {"agent": "llm", "model": f"llamacpp:{missing}"}, "werewolf": "random"}]}  # fmt: skip
        with pytest.raises(ConfigError, match=f"a cluster node .*could not play a game: cannot load model .*{missing}"):
            run_tournament(load_config(config), store=store, executor=RayExecutor(), progress=False)
        assert not store.game_ids("nomodel")
    finally:
        ray.shutdown()
    assert res.played == 4 and len(store.game_ids("smoke")) == 4
    local = TinyStore(tmp_path / "local.sqlite")
    run_tournament("smoke", store=local, progress=False)
    by_id = {r.game_id: r for r in local.iter_records("smoke")}
    for r in store.iter_records("smoke"):
        assert r.events == by_id[r.game_id].events  # same games whichever executor plays them
    store.close()
    local.close()


# ----------------------------------------------------------------------------- LLM players over HTTP
FAKE_SERVER = TESTS.parent / "benchmarks" / "fake_openai_server.py"


@pytest.fixture
def openai_server() -> Any:
    """The benchmark's OpenAI-compatible server in its own process (answers after 10 ms)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(FAKE_SERVER), str(port), "0.01"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    yield f"http://127.0.0.1:{port}/v1"
    proc.kill()
    proc.wait()
    proc.stdout.close()


def test_llm_tournament_loads_one_shared_model_per_spec(
    openai_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from lycan.models.openai_backend import OpenAIModel

    built: list[OpenAIModel] = []
    closed: list[OpenAIModel] = []
    init, aclose = OpenAIModel.__init__, OpenAIModel.aclose

    def counting_init(self: OpenAIModel, *args: Any, **kw: Any) -> None:
        init(self, *args, **kw)
        built.append(self)

    async def counting_aclose(self: OpenAIModel) -> None:
        closed.append(self)
        await aclose(self)

    monkeypatch.setattr(OpenAIModel, "__init__", counting_init)
    monkeypatch.setattr(OpenAIModel, "aclose", counting_aclose)
    player = {"agent": "llm", "model": f"openai:fake@{openai_server}", "model_options": {"max_concurrency": 32}}
    setting = {"name": "s", "rules": "guardian5", "village": player, "werewolf": player}
    cfg = load_config({"run": "llm", "games": 3, "settings": [setting]})
    records: list[Any] = []
    store = TinyStore(tmp_path / "s.db")
    executor = LocalExecutor(concurrency=3)
    result = run_tournament(cfg, store=store, executor=executor, progress=False, on_record=records.append)
    assert result.played == 3 and result.faults == 0
    assert all(r.winner is not None for r in records)
    calls = [u["calls"] for r in records for u in r.usage.values()]
    assert len(calls) == 15 and sum(calls) > 0  # a seat killed on the first night may never be asked
    assert len(built) == 1 and built[0].max_concurrency == 32  # 15 seats, one backend (one HTTP pool)
    assert closed == built


def test_model_pool_and_provider_of_a_server_spec() -> None:
    import asyncio

    from lycan.arena import AgentSpec, ModelPool, Setting

    pool = ModelPool()
    spec = "openai:fake@http://127.0.0.1:9/v1"
    first = pool.get(spec, {"max_concurrency": 4})
    assert pool.get(spec, {"max_concurrency": 4}) is first
    assert pool.get(spec, {"max_concurrency": 5}) is not first
    with pytest.raises(ConfigError, match="cannot load model 'nosuch:x'"):
        pool.get("nosuch:x")
    asyncio.run(pool.aclose())
    assert AgentSpec.model_validate({"agent": "llm", "model": spec}).provider_key == "http://127.0.0.1:9/v1"
    assert AgentSpec.model_validate("llm:openai/gpt-4o").provider_key == "openai"
    # settings written before model_options existed keep their key (and so their game ids)
    setting = Setting.model_validate({"rules": "guardian5", "village": "random", "werewolf": "heuristic"})
    assert setting.key == "s56071d940a"


def test_agents_and_rotation_draw_from_their_own_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """`seed * 1_000 + seat` or `random.Random(seed)` would let a seat work back to the game seed and the deal."""
    import lycan.arena.config as config
    import lycan.arena.executors as executors
    from lycan.engine.seeds import derive, stream

    streams: list[tuple[object, ...]] = []

    def spy_stream(seed: int, *path: str | int) -> Any:
        streams.append((seed, *path))
        return stream(seed, *path)

    monkeypatch.setattr(config, "stream", spy_stream)
    cfg = load_config(
        {
            "run": "r",
            "games": 3,
            "settings": [
                {"name": "rot", "rules": "aiwolf5", "seats": [{"agent": "random", "label": f"p{i}"} for i in range(5)]}
            ],
        }
    )
    jobs = plan(cfg)
    assert streams == [(j.seed, "rotation") for j in jobs]

    seeds: list[int] = []
    import lycan.agents

    real = lycan.agents.make_agent
    monkeypatch.setattr(
        lycan.agents, "make_agent", lambda kind, seed, **kw: seeds.append(seed) or real(kind, seed, **kw)
    )
    record = executors.play_job(jobs[0])
    assert seeds == [derive(jobs[0].seed, "agent", seat) for seat in range(5)]
    assert record.seed == jobs[0].seed


def _overlaps(records: list[Any]) -> int:
    """How many pairs of games were in play at the same time."""
    spans = sorted((r.started_at, r.finished_at) for r in records)
    return sum(1 for i, (_, end) in enumerate(spans) for start, _ in spans[i + 1 :] if start < end)


TINY_LLM = {"agent": "llm", "model": "local:tiny", "model_options": {"n_ctx": 1024}}


def _guardian5(db: Path, village: Any, werewolf: Any, games: int, executor: LocalExecutor) -> tuple[Any, list[Any]]:
    """A one-setting guardian5 tournament (no side swap) played by `executor`; its result and records."""
    setting = {"name": "s", "rules": "guardian5", "village": village, "werewolf": werewolf, "swap": False}
    cfg = load_config({"run": "r", "games": games, "settings": [setting]})
    records: list[Any] = []
    result = run_tournament(cfg, store=TinyStore(db), executor=executor, progress=False, on_record=records.append)
    assert result.played == games and all(r.winner is not None for r in records)
    return result, records


def test_games_on_an_in_process_model_are_played_one_at_a_time(tmp_path: Path) -> None:
    # eight games at once on one llama.cpp model queued each other's calls past the seats' time
    # limits; a model that answers one call at a time now has one game in play at a time
    from lycan.models import CachedModel, calls_at_once, load_model

    tiny = load_model("local:tiny")
    assert calls_at_once(tiny) == 1 and calls_at_once(CachedModel(tiny)) == 1
    assert calls_at_once(load_model("openai:fake@http://127.0.0.1:9/v1")) is None
    _, records = _guardian5(tmp_path / "t.db", TINY_LLM, "heuristic", 2, LocalExecutor(concurrency=2))
    assert _overlaps(records) == 0
    assert sum(u["calls"] for r in records for u in r.usage.values()) > 0


def test_games_on_an_in_process_model_run_side_by_side_in_worker_processes(tmp_path: Path) -> None:
    # each worker process loads its own copy of the model, so two workers play two games at once
    result, records = _guardian5(tmp_path / "p.db", TINY_LLM, "heuristic", 2, LocalExecutor(processes=2))
    assert _overlaps(records) == 1
    assert {r.meta["index"] for r in records} == {0, 1}
    assert all(sum(u["calls"] for u in r.usage.values()) > 0 for r in records)
    assert result.faults == 0


async def test_a_workers_models_outlive_a_game_but_its_connections_do_not() -> None:
    from lycan.arena.executors import ModelPool
    from lycan.models import runs_in_process

    pool = ModelPool()
    tiny = pool.get("local:tiny")
    served = pool.get("openai:fake@http://127.0.0.1:9/v1")
    assert runs_in_process("local:tiny") and runs_in_process("hf:/x") and not runs_in_process("openai:fake")
    await pool.aclose(keep_in_process=True)
    assert pool.get("local:tiny") is tiny  # kept for the worker's next game
    assert pool.get("openai:fake@http://127.0.0.1:9/v1") is not served  # closed and built again
    await pool.aclose()
    assert pool.get("local:tiny") is not tiny


def test_a_workers_in_process_models_get_their_share_of_the_cores() -> None:
    from lycan.arena.config import AgentSpec
    from lycan.arena.executors import _with_threads

    local = AgentSpec(agent="llm", model="local")
    assert _with_threads(local, 4).model_options == {"n_threads": 4}
    given = AgentSpec(agent="llm", model="local", model_options={"n_threads": 2})
    assert _with_threads(given, 4) is given
    served = AgentSpec(agent="llm", model="openai:gpt-4o")
    assert _with_threads(served, 4) is served
    assert _with_threads(AgentSpec(agent="heuristic"), 4).model_options == {}


def test_games_on_a_server_model_are_played_side_by_side(openai_server: str, tmp_path: Path) -> None:
    player = {"agent": "llm", "model": f"openai:fake@{openai_server}"}
    _, records = _guardian5(tmp_path / "s.db", player, player, 3, LocalExecutor(concurrency=3))
    assert _overlaps(records) > 0


# ----------------------------------------------------------------------------- a real multi-node cluster
CLUSTER_RUN = """
run: cluster
games: {games}
settings:
  - name: heuristic-guardian7
    rules: guardian7
    village: heuristic
    werewolf: heuristic
"""


def test_a_tournament_on_a_two_node_cluster_survives_losing_a_node(tmp_path: Path) -> None:
    """Head and worker started as separate `ray start` processes; the worker is killed mid-run."""
    pytest.importorskip("ray")
    from _ray_cluster import ray_cluster
    from lycan.store import GameStore

    games, kill_after = 100, 8  # a game takes about 0.1 s: enough left after the worker's first games
    config = tmp_path / "cluster.yaml"
    config.write_text(CLUSTER_RUN.format(games=games))
    db = tmp_path / "cluster.db"
    log = tmp_path / "tournament.log"
    with ray_cluster(tmp_path / "cluster", workers=1, cpus=1) as cluster:
        env = cluster.env
        with log.open("wb") as out:
            run = subprocess.Popen(
                [sys.executable, "-m", "lycan", "tournament", str(config), "--db", str(db), "--executor", "ray",
                 "--ray-address", cluster.address],
                stdout=out, stderr=subprocess.STDOUT, env=env,
            )  # fmt: skip
            killed_at = None
            deadline = time.time() + 240
            while run.poll() is None and time.time() < deadline:
                if killed_at is None and db.exists():
                    with GameStore(db) as store:
                        played = [r.meta.get("ray_node") for r in store.iter_records(run="cluster")]
                    done = len(played)
                    if done >= kill_after and len(set(played)) == 2:  # once both nodes have played, kill one
                        cluster.kill(1)  # the worker node: its raylet, object store and game workers
                        killed_at = done
                time.sleep(0.2)
            if run.poll() is None:
                run.kill()
            assert run.wait(10) == 0, log.read_text()[-3000:]
    assert killed_at is not None and killed_at < games, "the worker was not killed mid-run"
    with GameStore(db) as store:
        records = list(store.iter_records(run="cluster"))
    ids = [r.game_id for r in records]
    assert len(ids) == games and len(set(ids)) == games  # every game once: none lost, none twice
    nodes = collections.Counter(r.meta.get("ray_node") for r in records)
    assert len(nodes) == 2 and None not in nodes, nodes  # games ran on both nodes
    # the same games as one process plays them: a game replayed after the node died is the same game
    local = TinyStore(tmp_path / "local.sqlite")
    try:
        run_tournament(load_config(config), store=local, progress=False)
        by_id = {r.game_id: r for r in local.iter_records("cluster")}
        assert all(r.events == by_id[r.game_id].events for r in records)
    finally:
        local.close()


def test_an_unreachable_cluster_is_one_sentence(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from _ray_cluster import free_port

    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    started = time.time()
    out = subprocess.run(
        [sys.executable, "-m", "lycan", "tournament", "smoke", "--db", str(tmp_path / "x.db"), "--executor", "ray",
         "--ray-address", f"127.0.0.1:{free_port()}"],
        capture_output=True, text=True, env=env, timeout=180,
    )  # fmt: skip
    assert out.returncode == 2, out.stdout + out.stderr
    lines = [line for line in (out.stdout + out.stderr).strip().splitlines() if line.strip()]
    assert lines[-1].startswith("error:") and "cannot reach the Ray cluster at 127.0.0.1:" in lines[-1], lines
    assert time.time() - started < 150


def test_the_paired_speech_benchmark_plays_seed_002s_deals_with_its_lineups() -> None:
    """Game i of each side is dealt and seated as game i and 50 + i of seed 002's camwolf-vs-react."""
    config = load_config(Path(__file__).parent.parent / "benchmarks" / "speech_paired.yaml")
    stored = {job.index: job for job in plan(load_config("seed002-table1")) if job.setting == "camwolf-vs-react"}
    jobs = plan(config)
    assert len(jobs) == 2 * config.games
    for job in jobs:
        twin = stored[job.index if job.setting == "camwolf-village" else 50 + job.index]
        assert job.seed == twin.seed
        assert [spec.name for spec in job.seats] == [spec.name for spec in twin.seats]
