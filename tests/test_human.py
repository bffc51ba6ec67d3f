"""The terminal player: only its seat's view, only legal choices, re-asked on illegal input."""

from __future__ import annotations

from collections.abc import Iterator

from lycan.agents import RandomAgent
from lycan.agents.human import HumanAgent
from lycan.engine import Game, Request
from lycan.engine.runner import run_sync
from lycan.rules import Role, get_preset


def scripted(lines: list[str]) -> tuple[HumanAgent, list[str]]:
    feed: Iterator[str] = iter(lines)
    shown: list[str] = []
    return HumanAgent(read_line=lambda prompt: (shown.append(prompt), next(feed))[1], write=shown.append), shown


def test_illegal_target_is_refused_with_the_legal_ones_then_accepted() -> None:
    game = Game(get_preset("guardian7"), seed=4)
    view = game.view(0)
    req = Request(1, 0, "vote", 1, targets=(2, 3, 5))
    agent, shown = scripted(["Player 1", "9", "nonsense", "2"])
    action = agent.decide(view, req)
    assert action.kind == "choose" and action.target == 3
    refusals = [s for s in shown if "not a legal choice" in s]
    assert len(refusals) == 3
    assert "Player 3, Player 4, Player 6" in refusals[0]


def test_names_and_pass() -> None:
    game = Game(get_preset("witch6"), seed=1)
    agent, _ = scripted(["player 4"])
    act = agent.decide(game.view(0), Request(1, 0, "poison", 1, targets=(1, 3), can_pass=True))
    assert act.target == 3
    agent, _ = scripted(["0"])
    assert agent.decide(game.view(0), Request(2, 0, "poison", 1, targets=(1, 3), can_pass=True)).kind == "pass"


def test_talk_over_and_skip() -> None:
    game = Game(get_preset("aiwolf5"), seed=1)
    agent, _ = scripted(["", "Hello all.", "/over", "/skip"])
    assert agent.decide(game.view(0), Request(1, 0, "talk", 0)).text == "Hello all."
    assert agent.decide(game.view(0), Request(2, 0, "talk", 0)).kind == "over"
    assert agent.decide(game.view(0), Request(3, 0, "talk", 0, can_skip=True)).kind == "skip"


class Watching(RandomAgent):
    """Plays randomly, but prints its view through a HumanAgent before every action."""

    def __init__(self, seed: int, human: HumanAgent) -> None:
        super().__init__(seed)
        self.human = human

    def decide(self, view, request):  # type: ignore[no-untyped-def]
        self.human.show_new(view)
        return super().decide(view, request)


def test_a_person_sees_only_their_seat() -> None:
    rules = get_preset("guardian7")
    checked = 0
    for seed in range(12):
        game = Game(rules, seed)
        seat = next(s for s, r in enumerate(game.roles) if r is Role.VILLAGER)
        lines: list[str] = []
        human = HumanAgent(read_line=lambda _p: "/over", write=lines.append)

        players = [RandomAgent(seed * 10 + s) for s in range(rules.n_players)]
        players[seat] = Watching(seed, human)
        record = run_sync(rules, players, seed)
        assert record.winner in ("village", "werewolf")
        if not lines:  # killed on the first night before ever being asked
            continue
        text = "\n".join(lines).lower()
        assert "your role is villager" in text
        checked += 1
        for secret in ("divined", "attack", "protect", "whisper", "wakes as", "role is werewolf", "werewolves are"):
            assert secret not in text, secret
    assert checked >= 6
