"""Limits that hold against strangers: how often a network may do a costly thing."""

from __future__ import annotations

import ipaddress
from collections import deque

MAX_CLIENTS = 10_000
"""Clients a limit remembers at once (old ones are forgotten first)."""


def client_key(host: str) -> str:
    """The network a client address counts for: its IPv4 /24 or IPv6 /64 (all of loopback is one).

    One person easily holds many addresses of one network (twenty loopback addresses, an IPv6
    /64), so limits count networks, not addresses.
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "loopback"
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


class CreationLimit:
    """At most `count` tables per client (a `client_key`) in any `window` seconds."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self.by_client: dict[str, deque[float]] = {}

    def wait(self, client: str, now: float) -> float:
        """Seconds `client` must wait before it may create a table (0: it may now)."""
        times = self.by_client.get(client)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self.by_client[client]
            return 0.0
        if len(times) < self.count:
            return 0.0
        return times[0] + self.window - now

    def note(self, client: str, now: float) -> None:
        """`client` created a table at `now`."""
        if client not in self.by_client and len(self.by_client) >= MAX_CLIENTS:
            for old in [c for c, t in self.by_client.items() if not t or t[-1] <= now - self.window]:
                del self.by_client[old]
            if len(self.by_client) >= MAX_CLIENTS:  # forget the address that created least recently
                del self.by_client[min(self.by_client, key=lambda c: self.by_client[c][-1])]
        self.by_client.setdefault(client, deque()).append(now)

    def forget(self, client: str, now: float) -> None:
        """Take back `note(client, now)` (the table was not made after all)."""
        times = self.by_client.get(client)
        if times is not None and now in times:
            times.remove(now)
