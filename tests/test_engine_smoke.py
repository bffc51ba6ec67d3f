from lycan.agents import RandomAgent
from lycan.engine import replay, run_sync, visible
from lycan.rules import get_preset, preset_names


def test_every_preset_finishes_and_replays() -> None:
    for name in preset_names():
        rules = get_preset(name)
        for seed in range(20):
            rec = run_sync(rules, [RandomAgent(seed * 31 + s) for s in range(rules.n_players)], seed)
            assert rec.winner in ("village", "werewolf")
            assert rec.events[-1].kind == "game_over"
            again = replay(rec)
            assert tuple(again.events) == rec.events
            for seat in range(rules.n_players):
                assert all(e.visible_to(seat) for e in visible(rec.events, seat))
