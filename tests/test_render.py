import re

from hypothesis import given, settings
from hypothesis import strategies as st

from lycan.agents import RandomAgent
from lycan.engine import Action, GameRecord, Request, View, default_names, run_sync, visible
from lycan.engine.events import (
    EVENT_TYPES,
    BidPlaced,
    Died,
    Divined,
    Event,
    Executed,
    GameOver,
    GameStarted,
    NightResolved,
    Talk,
    VoteCast,
)
from lycan.render import describe_event, render_log, render_roles
from lycan.rules import Role, RuleOptions, RuleSet, Species, get_preset, preset_names

#: Every other role and option the presets leave out: hunters, a medium, roles revealed on death,
#: bidding for the floor, and a witch and a guardian in one village.
MIXED = RuleSet(
    name="mixed9",
    roles={
        Role.WEREWOLF: 2,
        Role.POSSESSED: 1,
        Role.HUNTER: 1,
        Role.MEDIUM: 1,
        Role.SEER: 1,
        Role.WITCH: 1,
        Role.GUARDIAN: 1,
        Role.VILLAGER: 1,
    },
    options=RuleOptions(reveal_role_on_death=True, discussion="bidding", tie_break="no_execution"),
)
RULES = {name: get_preset(name) for name in preset_names()} | {"mixed9": MIXED}
ROLE_WORDS = re.compile(r"\b(werewol(f|ves)|possessed|seer|medium|guardian|witch|hunter|villager|human)\b")
NIGHT_WORDS = re.compile(r"\b(divined?|whispers?|attacks?|attacked|guards?|cure|poison|wakes?)\b")


class WhisperingAgent(RandomAgent):
    """Random, but every whisper carries a marker that only werewolves may ever read."""

    def decide(self, view: View, request: Request) -> Action:
        if request.kind == "whisper":
            return Action.speak(f"wolfsecret from {view.name}")
        return super().decide(view, request)


class ClumsyAgent(RandomAgent):
    """Random, except that it votes for a seat that does not exist (so the game records faults)."""

    def decide(self, view: View, request: Request) -> Action:
        if request.kind == "vote":
            return Action.choose(99)
        return super().decide(view, request)


def play(rules: RuleSet, seed: int, clumsy: bool = False) -> GameRecord:
    players = [(ClumsyAgent if clumsy and s == 0 else WhisperingAgent)(seed * 97 + s) for s in range(rules.n_players)]
    return run_sync(rules, players, seed, probe_days=(2,))


def lines_by_event(record: GameRecord, seat: int) -> list[tuple[Event, str]]:
    out = []
    for event in visible(record.events, seat):
        line = describe_event(event, record.names, viewer=seat)
        if line is not None:
            out.append((event, line))
    return out


def check_seat_logs(record: GameRecord) -> None:
    names = record.names
    wolves = {s for s, r in enumerate(record.roles) if r is Role.WEREWOLF}
    for seat, role in enumerate(record.roles):
        pairs = lines_by_event(record, seat)
        lines = render_log(record.events, names, seat=seat)
        assert lines == [line for _, line in pairs]
        assert isinstance(pairs[0][0], GameStarted) and isinstance(pairs[-1][0], GameOver)
        for event in record.events:
            if not event.visible_to(seat):
                assert describe_event(event, names, viewer=seat) is None
        for event, line in pairs[1:-1]:  # between the public opening and the final reveal
            assert "[hidden]" not in line and "[private" not in line
            assert event.audience is None or seat in event.audience
            assert "wolfsecret" not in line or seat in wolves
            for other, name in enumerate(names):
                if other != seat:
                    assert f"{name}'s role" not in line
            if ROLE_WORDS.search(line):
                revealed = getattr(event, "role", None) is not None and event.audience is None
                private = event.audience is not None and seat in event.audience
                assert revealed or private or (isinstance(event, Talk) and event.channel == "talk"), line
            if role is Role.VILLAGER:
                assert not NIGHT_WORDS.search(line), line
                assert not ROLE_WORDS.search(line) or event.kind == "role_assigned" or revealed, line
            if seat not in wolves:
                assert event.kind not in ("wolf_pack", "attack_vote", "attack_chosen"), line
                assert "whisper" not in line and "to attack" not in line and "werewolves attack " not in line, line
            if role is not Role.SEER:
                assert "divined" not in line, line
        divined = [line for _, line in pairs if "divined" in line]
        if role is Role.SEER:
            assert divined and all(re.match(r"Night \d+ — you divined .+: (human|werewolf)$", d) for d in divined)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 2**20), clumsy=st.booleans())
def test_a_seat_sees_only_its_own_secrets(name: str, seed: int, clumsy: bool) -> None:
    check_seat_logs(play(RULES[name], seed, clumsy))


def test_every_preset_and_every_seat_on_fixed_seeds() -> None:
    for rules in RULES.values():
        for seed in range(4):
            check_seat_logs(play(rules, seed, clumsy=seed == 3))


def test_every_event_kind_gets_a_line_somewhere() -> None:
    seen: dict[str, str] = {}
    silent = {"bid"}
    for rules in RULES.values():
        for seed in range(12):
            record = play(rules, seed, clumsy=seed % 4 == 0)
            for event in record.events:
                line = describe_event(event, record.names)
                quiet = isinstance(event, Talk) and (event.over or event.skip)
                repeat = isinstance(event, Died) and event.cause == "executed"
                if event.kind in silent or quiet or repeat:
                    assert line is None
                else:
                    assert line, event
                    seen.setdefault(event.kind, line)
    assert set(seen) == set(EVENT_TYPES) - silent


def test_whole_record_marks_every_private_and_hidden_line() -> None:
    record = play(get_preset("guardian7"), 5)
    names = record.names
    lines = render_log(record.events, names)
    described = [e for e in record.events if describe_event(e, names) is not None]
    assert len(lines) == len(described)
    for event, line in zip(described, lines, strict=True):
        if event.audience is None:
            assert not line.startswith("["), line
        elif not event.audience:
            assert line.startswith("[hidden] "), line
        else:
            who = ", ".join(names[s] for s in sorted(event.audience))
            assert line.startswith(f"[private: {who}] "), line
    resolved = [line for e, line in zip(described, lines, strict=True) if isinstance(e, NightResolved)]
    assert resolved
    assert all(re.match(r"\[hidden\] Night \d+ — what happened in the night: attacked", r) for r in resolved)
    assert any(re.search(r"Player \d divined Player \d: (human|werewolf)", line) for line in lines)
    assert lines[-1].startswith(("Village wins: ", "Werewolves win: "))


def test_example_lines() -> None:
    names = default_names(5)

    def ev(cls: type[Event], day: int = 1, phase: str = "day", audience: tuple[int, ...] | None = None, **kw: object):
        aud = None if audience is None else frozenset(audience)
        vis = "public" if aud is None else "seat"
        return cls(id=0, day=day, phase=phase, vis=vis, audience=aud, **kw)

    said = ev(Talk, actor=2, text="I am the seer. Player 4 is a werewolf.")
    assert describe_event(said, names) == "Day 1 — Player 3: I am the seer. Player 4 is a werewolf."
    assert describe_event(said, names, viewer=2) == "Day 1 — Player 3 (you): I am the seer. Player 4 is a werewolf."
    assert describe_event(ev(Talk, actor=2, text="", over=True), names) is None
    assert describe_event(ev(BidPlaced, actor=1, amount=2), names) is None

    vote = ev(VoteCast, actor=1, target=4)
    assert describe_event(vote, names) == "Player 2 votes for Player 5"
    assert describe_event(vote, names, viewer=1) == "You vote for Player 5"
    assert describe_event(vote, names, viewer=4) == "Player 2 votes for Player 5 (you)"
    revote = ev(VoteCast, actor=1, target=4, round=1)
    assert describe_event(revote, names) == "Player 2 votes for Player 5 in the revote"

    assert describe_event(ev(Executed, target=4, votes=4), names) == "Player 5 was executed (4 votes)"
    assert (
        describe_event(ev(Executed, target=4, votes=1, role=Role.SEER), names)
        == "Player 5 was executed (1 vote); they were the seer"
    )
    assert describe_event(ev(Died, target=4, cause="executed"), names) is None

    seen = ev(Divined, phase="night", audience=(2,), actor=2, target=3, result=Species.WEREWOLF)
    assert describe_event(seen, names, viewer=2) == "Night 1 — you divined Player 4: werewolf"
    assert describe_event(seen, names) == "Night 1 — Player 3 divined Player 4: werewolf"
    assert describe_event(seen, names, viewer=3) is None

    assert describe_event(ev(Died, day=2, target=0, cause="night"), names) == "Player 1 was found dead this morning"
    assert describe_event(ev(Died, day=2, target=0, cause="night"), names, viewer=0) == "You were killed in the night"

    over = ev(
        GameOver,
        phase="end",
        winner="werewolf",
        roles=(Role.WEREWOLF, Role.POSSESSED, Role.SEER, Role.VILLAGER, Role.VILLAGER),
        reason="1 werewolves match 1 others",
    )
    assert describe_event(over, names) == (
        "Werewolves win: 1 werewolves match 1 others. Roles: Player 1 werewolf, Player 2 possessed, "
        "Player 3 seer, Player 4 villager, Player 5 villager"
    )


def test_render_roles() -> None:
    roles = (Role.WEREWOLF, Role.POSSESSED, Role.SEER)
    assert render_roles(roles, ("Ann", "Bo", "Cy")) == [
        "Ann: werewolf (werewolf side)",
        "Bo: possessed (werewolf side)",
        "Cy: seer (village side)",
    ]
