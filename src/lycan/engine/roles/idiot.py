"""The village idiot: a villager whom the first execution spares, at the price of the vote.

Of the two roles proposed to show that a role is one module, the idiot was chosen over the fox:
the fox needs a third team and its own win condition (a change to the win check and to every
tally of wins by side), while the idiot needs only hooks the engine already calls.

When the day's vote first chooses the idiot, nobody is executed: the vote ends with a public
`NoExecution` whose reason names the idiot (`spare_reason`), and from then on the idiot talks but
is never asked to vote. A second vote against the idiot executes them as anyone else; the
werewolves may attack them at any time. The idiot is on the village team, reads as human and
counts as human in the win check. It adds no option, no request kind and no event type (an event
type of its own would also need a line in `lycan.render`).
"""

from __future__ import annotations

from lycan.engine.actions import Request
from lycan.engine.events import Event, Executed, NoExecution, VoteCast
from lycan.engine.roles.base import RoleChecks, RoleContext, RolePlugin, Shadow
from lycan.rules.roles import Role


def spare_reason(name: str) -> str:
    """The reason the vote that chose the idiot called `name` ends without an execution."""
    return f"{name} is the village idiot: spared, and votes no more"


class IdiotChecks(RoleChecks):
    """An idiot is spared only by their first execution, when the vote chose them, and never votes again."""

    watches = (Executed, NoExecution, VoteCast)
    asks = frozenset({"vote"})

    def __init__(self, shadow: Shadow, out: list[str]) -> None:
        super().__init__(shadow, out)
        self.revealed: set[int] = set()

    def event(self, e: Event) -> None:
        """Spares, executions of idiots, and votes of revealed ones."""
        shadow = self.shadow
        if isinstance(e, NoExecution):
            spared = next((s for s, name in enumerate(shadow.names) if e.reason == spare_reason(name)), None)
            if spared is None:
                return
            votes = shadow.votes
            top = max(votes.values(), default=0)
            if shadow.roles[spared] is not Role.IDIOT:
                self.fail(f"seat {spared}, a {shadow.roles[spared]}, is spared as the village idiot")
            if spared in self.revealed:
                self.fail(f"idiot {spared} is spared a second time")
            if not shadow.alive[spared]:
                self.fail(f"dead seat {spared} is spared as the village idiot")
            if top == 0 or votes[spared] != top:
                self.fail(f"idiot {spared} is spared by a vote that did not choose them: {dict(votes)}")
            self.revealed.add(spared)
        elif isinstance(e, Executed):
            if shadow.roles[e.target] is Role.IDIOT and e.target not in self.revealed:
                self.fail(f"idiot {e.target} executed by the first vote against them")
        elif isinstance(e, VoteCast) and e.actor in self.revealed:
            self.fail(f"seat {e.actor}, a revealed idiot, votes")

    def request(self, req: Request, where: str) -> None:
        """A revealed idiot gets no vote request."""
        if req.seat in self.revealed:
            self.fail(f"{where}: a revealed idiot is asked to vote")


class Idiot(RolePlugin):
    """Spared once by the vote, then voteless."""

    role = Role.IDIOT
    checks = IdiotChecks

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(seats)
        self.revealed: set[int] = set()

    def on_execution(self, table: RoleContext, seat: int, votes: int) -> str | None:
        """Spare the idiot the first time; the reason tells everyone who they are."""
        if seat in self.revealed:
            return None
        self.revealed.add(seat)
        return spare_reason(table.names[seat])

    def may_vote(self, table: RoleContext, seat: int) -> bool:
        """A revealed idiot votes no more."""
        return seat not in self.revealed
