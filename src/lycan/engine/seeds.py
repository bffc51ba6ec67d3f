"""Independent random streams derived from one game seed.

A game is reproducible from its seed, but no value a seat can see may narrow that seed down:
seat names, tie-breaks or an agent's own randomness drawn from the same stream as the deal would
let a seat search the seeds that fit what it saw and so recover every role. Each purpose therefore
gets its own stream, keyed by a path (`"deal"`, `"names"`, `"agent", 3`, ...) through BLAKE2b, so
knowing the output of one stream says nothing about another.

Small seeds (1, 2, 3 in a simulation) can still be guessed by trying them all; tables with people
or remote agents take a 128-bit seed from `fresh_seed()` and keep it secret until the game ends.
"""

from __future__ import annotations

import hashlib
import random
import secrets

SEED_BITS = 128
"""Size of a fresh seed for a live table: far beyond any search of the seed space."""


def _digest(seed: int, path: tuple[str | int, ...], size: int) -> bytes:
    message = "/".join(str(p) for p in path) + "\x00" + str(seed)
    return hashlib.blake2b(message.encode(), person=b"lycan-seed", digest_size=size).digest()


def derive(seed: int, *path: str | int) -> int:
    """A non-negative 63-bit seed for the purpose named by `path`, independent of every other path.

    Example: `derive(seed, "agent", 3)` seeds the agent in seat 3.
    """
    if not path:
        raise ValueError("derive() needs a purpose, e.g. derive(seed, 'deal')")
    return int.from_bytes(_digest(seed, path, 8), "big") >> 1


def stream(seed: int, *path: str | int) -> random.Random:
    """A `random.Random` for the purpose named by `path`, seeded with 256 bits derived from `seed`."""
    if not path:
        raise ValueError("stream() needs a purpose, e.g. stream(seed, 'deal')")
    return random.Random(int.from_bytes(_digest(seed, path, 32), "big"))


def fresh_seed() -> int:
    """A new secret seed of `SEED_BITS` bits from the operating system's random source."""
    return secrets.randbits(SEED_BITS)
