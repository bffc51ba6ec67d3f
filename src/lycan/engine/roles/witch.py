"""The witch: one cure and one poison for the whole game, used after the werewolves chose.

Each night she learns tonight's victim and her potions left (`WitchWoken`), may cure the victim
(not herself unless `witch_self_save`), then may poison another living seat (also after curing
only if `witch_both_same_night`). A poisoned seat dies whatever protects it.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from lycan.engine.actions import PotionInfo, Request
from lycan.engine.events import Event, NightResolved, PhaseStarted, PotionUsed, WitchWoken
from lycan.engine.roles.base import Night, RoleChecks, RoleContext, RolePlugin, Secrecy, Shadow, Steps, describe
from lycan.rules.roles import Role


class WitchChecks(RoleChecks):
    """Potions are told right, used once each, on legal targets, and account for the poisoned."""

    watches = (WitchWoken, PotionUsed, NightResolved, PhaseStarted)
    asks = frozenset({"cure", "poison"})

    def __init__(self, shadow: Shadow, out: list[str]) -> None:
        super().__init__(shadow, out)
        self.cures: Counter[int] = Counter()
        self.poisons: Counter[int] = Counter()
        self.used_tonight: dict[int, set[str]] = {}
        self.poisoned_tonight: set[int] = set()

    def event(self, e: Event) -> None:
        """The witch's wake-up, her potions, and the night's poisoned."""
        shadow, opts = self.shadow, self.options
        if isinstance(e, WitchWoken):
            if shadow.roles[e.actor] is not Role.WITCH:
                self.fail(f"{describe(e)} wakes a {shadow.roles[e.actor]}")
            if e.attacked != shadow.attacked:
                self.fail(f"the witch is told seat {e.attacked} was attacked, not {shadow.attacked}")
            if (e.cures, e.poisons) != (1 - self.cures[e.actor], 1 - self.poisons[e.actor]):
                self.fail(f"the witch is told of {e.cures} cures and {e.poisons} poisons left, which is wrong")
        elif isinstance(e, PotionUsed):
            used = self.used_tonight.setdefault(e.actor, set())
            used.add(e.potion)
            if len(used) == 2 and not opts.witch_both_same_night:
                self.fail(f"witch {e.actor} uses both potions on night {e.day}")
            if e.potion == "cure":
                self.cures[e.actor] += 1
                if e.target != shadow.attacked:
                    self.fail(f"witch cures seat {e.target}, who was not attacked")
                if e.target == e.actor and not opts.witch_self_save:
                    self.fail(f"witch {e.actor} saves itself")
            else:
                self.poisons[e.actor] += 1
                self.poisoned_tonight.add(e.target)
                if e.target == e.actor:
                    self.fail(f"witch {e.actor} poisons itself")
            if self.cures[e.actor] > 1 or self.poisons[e.actor] > 1:
                self.fail(f"witch {e.actor} uses a {e.potion} potion more than once")
        elif isinstance(e, NightResolved):
            if set(e.poisoned) != self.poisoned_tonight:
                self.fail(f"night {e.day}: poisoned {list(e.poisoned)}, potions say {sorted(self.poisoned_tonight)}")
            witches = sum(1 for r in shadow.roles if r is Role.WITCH)
            if len(e.deaths) > 1 + witches:
                self.fail(f"{len(e.deaths)} deaths on night {e.day}, at most {1 + witches} are possible")
        elif isinstance(e, PhaseStarted) and e.phase == "night":
            self.used_tonight = {}
            self.poisoned_tonight = set()

    def request(self, req: Request, where: str) -> None:
        """Cure only tonight's victim (herself only if allowed); never poison herself."""
        if req.kind == "poison":
            if req.seat in req.targets:
                self.fail(f"{where}: may poison itself")
            return
        attacked = self.shadow.attacked
        if req.targets != (attacked,):
            self.fail(f"{where}: cure targets {list(req.targets)}, not tonight's victim {attacked}")
        if req.seat in req.targets and not self.options.witch_self_save:
            self.fail(f"{where}: the witch may save itself")


class Witch(RolePlugin):
    """A cure and a poison."""

    role = Role.WITCH
    options = ("witch_self_save", "witch_both_same_night")
    requests = frozenset({"cure", "poison"})
    events: ClassVar[dict[type[Event], Secrecy]] = {WitchWoken: "actor", PotionUsed: "actor"}
    night_order = 30
    checks = WitchChecks

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(seats)
        self.potions = {s: [1, 1] for s in seats}
        """Cures and poisons left, by seat."""

    def night_step(self, table: RoleContext, night: Night) -> Steps:
        """Wake each living witch in turn: tell her the victim, offer the cure, then the poison."""
        opts = table.options
        attacked = night.attacked
        for w in self.living_seats(table):
            potions = self.potions[w]
            table.emit(WitchWoken, audience=(w,), actor=w, attacked=attacked, cures=potions[0], poisons=potions[1])
            cured = False
            if potions[0] and attacked is not None and (attacked != w or opts.witch_self_save):
                req = table.request(w, "cure", targets=(attacked,), can_pass=True, info=PotionInfo(attacked=attacked))
                act = (yield from table.ask([req]))[w]
                if act.kind == "choose" and act.target is not None:
                    potions[0] -= 1
                    cured = True
                    night.saved.append(act.target)
                    table.emit(PotionUsed, audience=(w,), actor=w, potion="cure", target=act.target)
            if potions[1] and (not cured or opts.witch_both_same_night):
                targets = tuple([t for t in night.living if t != w])
                req = table.request(w, "poison", targets=targets, can_pass=True, info=PotionInfo(attacked=attacked))
                act = (yield from table.ask([req]))[w]
                if act.kind == "choose" and act.target is not None:
                    potions[1] -= 1
                    night.poisoned.append(act.target)
                    table.emit(PotionUsed, audience=(w,), actor=w, potion="poison", target=act.target)
