"""The werewolf: at night the pack votes on a victim among the other seats.

Each living werewolf chooses a prey; the seat chosen most becomes the victim, a tie is broken
from the werewolves' own random stream (only they see its outcome). Whether the pack attacks on
the first night is `first_night_attack`. The pack and its whispers are the engine's team
channel; this module is the attack.
"""

from __future__ import annotations

from typing import ClassVar

from lycan.engine.actions import Action, Request
from lycan.engine.events import AttackChosen, AttackVote, Event
from lycan.engine.roles.base import Night, RoleChecks, RoleContext, RolePlugin, Secrecy, describe
from lycan.rules.roles import Role


class WerewolfChecks(RoleChecks):
    """Only werewolves vote to attack, never a werewolf or a dead seat, and not on a night without attack."""

    watches = (AttackVote, AttackChosen)
    asks = frozenset({"attack"})

    def event(self, e: Event) -> None:
        """Attack votes and the chosen victim."""
        assert isinstance(e, AttackVote | AttackChosen)
        shadow = self.shadow
        if isinstance(e, AttackVote) and e.actor not in shadow.wolves:
            self.fail(f"seat {e.actor}, no werewolf, votes to attack")
        if e.target in shadow.wolves or not shadow.alive[e.target]:
            self.fail(f"{describe(e)} targets a werewolf or a dead seat")
        if e.day == 0 and not self.options.first_night_attack:
            self.fail(f"an attack on the first night although the rules forbid it: #{e.id}")
        if isinstance(e, AttackChosen):
            shadow.attacked = e.target

    def request(self, req: Request, where: str) -> None:
        """An attack request never offers a werewolf."""
        wolves = [t for t in req.targets if self.shadow.roles[t] is Role.WEREWOLF]
        if wolves:
            self.fail(f"{where}: werewolves {wolves} may be attacked")


class Werewolf(RolePlugin):
    """The pack's attack."""

    role = Role.WEREWOLF
    options = ("first_night_attack",)
    requests = frozenset({"attack", "whisper"})
    droppable = frozenset({"attack"})
    events: ClassVar[dict[type[Event], Secrecy]] = {AttackVote: "wolves", AttackChosen: "wolves"}
    night_order = 0
    checks = WerewolfChecks

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(seats)
        self.pack = frozenset(seats)

    def night_requests(self, table: RoleContext, night: Night) -> list[Request]:
        """An attack request for every living werewolf, on nights with an attack."""
        if not night.attacking:
            return []
        pack = self.pack
        prey = tuple([s for s in night.living if s not in pack])
        return [table.request(w, "attack", targets=prey) for w in self.living_seats(table)]

    def resolve(self, table: RoleContext, night: Night, answers: dict[int, Action]) -> None:
        """Tally the pack's choices; a tie is drawn from the werewolves' stream."""
        tally: dict[int, int] = {}
        for wolf in self.seats:
            act = answers.get(wolf)
            if act is None:  # dead, not asked
                continue
            prey = act.target
            if prey is None:  # an illegal choice the rules drop
                continue
            table.emit(AttackVote, audience=self.pack, actor=wolf, target=prey)
            tally[prey] = tally.get(prey, 0) + 1
        if tally:
            top = max(tally.values())
            tied = sorted(t for t, c in tally.items() if c == top)
            night.attacked = tied[0] if len(tied) == 1 else table.team_rng.choice(tied)
            table.emit(AttackChosen, audience=self.pack, target=night.attacked)
