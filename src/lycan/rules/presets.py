"""Named presets for the rule families the seeds use, and loading rule sets from specs and files."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lycan.rules.files import read_data
from lycan.rules.roles import Role
from lycan.rules.ruleset import ConfigError, RuleOptions, RuleSet, TalkLimits

#: AIWolf NLP division options, as the official server's default_5.yml / default_13.yml set them:
#: greeting on day 0, divination on night 0 but no attack, `aiwolf` talk rules with no cap on one
#: utterance's length, self-votes allowed, ties broken at random after one vote round, illegal
#: targets dropped rather than asked again. Lycan's stricter choices (`talk.max_length=125`,
#: `allow_self_vote=false`, `invalid_target="retry"`) are options of a rules file.
_AIWOLF = RuleOptions(
    tie_break="random",
    allow_self_vote=True,
    greeting=True,
    first_night_attack=False,
    discussion="aiwolf",
    guardian_self=False,
    guardian_repeat=True,
    invalid_target="ignore",
    talk=TalkLimits(per_agent=4, per_day=20, max_length=0, max_skip=0),
    whisper_limits=TalkLimits(rounds=1, per_agent=4, per_day=20, max_length=0),
)


def aiwolf5() -> RuleSet:
    """Seed 000 (Deep Wolf): werewolf, possessed, seer, 2 villagers under AIWolf NLP rules."""
    roles = {Role.WEREWOLF: 1, Role.POSSESSED: 1, Role.SEER: 1, Role.VILLAGER: 2}
    return RuleSet(name="aiwolf5", roles=roles, options=_AIWOLF)


def aiwolf13() -> RuleSet:
    """AIWolf NLP 13-player: 3 werewolves, possessed, seer, bodyguard, medium, 6 villagers."""
    roles = {
        Role.WEREWOLF: 3,
        Role.POSSESSED: 1,
        Role.SEER: 1,
        Role.GUARDIAN: 1,
        Role.MEDIUM: 1,
        Role.VILLAGER: 6,
    }
    # default_13.yml: 52 talks a day; whispers 4 per wolf, 12 a day; text before the first @Name
    # mention is cut to 50 characters and text from it on to 50; wolves whisper on day 0 too.
    mention = {"max_length": 0, "base_length": 50, "mention_length": 50}
    opts = _AIWOLF.model_copy(
        update={
            "talk": TalkLimits(per_agent=4, per_day=52, **mention),
            "whisper_limits": TalkLimits(rounds=1, per_agent=4, per_day=12, **mention),
            "day0_whisper": True,
        }
    )
    return RuleSet(name="aiwolf13", roles=roles, options=opts)


def witch(n: int = 6) -> RuleSet:
    """Seed 001: 2 werewolves, seer, witch (1 cure, 1 poison), villagers; night wolves, seer, witch."""
    if not 6 <= n <= 50:
        raise ConfigError(f"witch presets need 6 to 50 players, not {n}; use e.g. witch6")
    roles = {Role.WEREWOLF: 2, Role.SEER: 1, Role.WITCH: 1, Role.VILLAGER: n - 4}
    return RuleSet(name=f"witch{n}", roles=roles, options=RuleOptions())


def guardian7() -> RuleSet:
    """Seed 002 main experiments: 2 werewolves, seer, guardian, 3 villagers."""
    roles = {Role.WEREWOLF: 2, Role.SEER: 1, Role.GUARDIAN: 1, Role.VILLAGER: 3}
    return RuleSet(name="guardian7", roles=roles, options=RuleOptions())


def guardian5() -> RuleSet:
    """Our reading of seed 002's 5-player study: werewolf, seer, guardian, 2 villagers."""
    roles = {Role.WEREWOLF: 1, Role.SEER: 1, Role.GUARDIAN: 1, Role.VILLAGER: 2}
    return RuleSet(name="guardian5", roles=roles, options=RuleOptions())


PRESETS: dict[str, Callable[[], RuleSet]] = {
    "aiwolf5": aiwolf5,
    "aiwolf13": aiwolf13,
    "witch6": witch,
    "guardian7": guardian7,
    "guardian5": guardian5,
}


def preset_names() -> list[str]:
    """The preset names `--preset all` expands to."""
    return list(PRESETS)


def get_preset(name: str) -> RuleSet:
    """Return the preset called `name`; `witchN` gives the witch preset for N >= 6 players.

    Raises:
        ConfigError: no such preset.

    """
    key = name.strip().lower()
    if key in PRESETS:
        return PRESETS[key]()
    match = re.fullmatch(r"witch(\d+)", key)
    if match:
        return witch(int(match.group(1)))
    raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)} (or witchN, N >= 6)")


def _one_sentence(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def rules_from_dict(data: dict[str, Any], *, source: str = "config") -> RuleSet:
    """Build a rule set from a mapping: `{preset: NAME}` and/or `{roles: {...}, options: {...}}`.

    A `preset` key starts from that preset; `roles` replaces its roles and `options` updates its
    options key by key.

    Raises:
        ConfigError: the mapping does not describe a playable rule set.

    """
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a table of settings, got {type(data).__name__}")
    unknown = set(data) - {"preset", "name", "roles", "options"}
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}; use preset, name, roles, options")
    base = get_preset(str(data["preset"])) if "preset" in data else None
    if not isinstance(data.get("options") or {}, dict):
        raise ConfigError(f"{source}: options must be a table of settings, e.g. options = {{tie_break = 'random'}}")
    try:
        options: dict[str, Any] = base.options.model_dump() if base else {}
        options.update(data.get("options") or {})
        roles = data.get("roles") or (dict(base.roles) if base else None)
        if roles is None:
            raise ConfigError(f"{source}: give a preset or a roles table, e.g. roles = {{werewolf = 1, villager = 4}}")
        name = data.get("name") or (base.name if base and "roles" not in data else "custom")
        return RuleSet(name=name, roles=roles, options=RuleOptions(**options))
    except ValidationError as err:
        raise ConfigError(f"{source}: {_one_sentence(err)}") from None
    except ConfigError:
        raise
    except ValueError as err:
        raise ConfigError(f"{source}: {err}") from None


def parse_roles_spec(spec: str) -> RuleSet:
    """Parse a custom deal such as `werewolf=2,seer=1,guardian=1,villager=3`.

    Raises:
        ConfigError: malformed spec or an unplayable deal.

    """
    roles: dict[str, int] = {}
    for part in spec.split(","):
        name, sep, count = part.partition("=")
        if not sep or not count.strip().isdigit():
            raise ConfigError(f"cannot read {part!r} in {spec!r}; write ROLE=COUNT pairs such as werewolf=2,villager=4")
        roles[name.strip()] = roles.get(name.strip(), 0) + int(count)
    return rules_from_dict({"roles": roles}, source=spec)


def load_rules_file(path: str | Path) -> RuleSet:
    """Load a rule set from a YAML or TOML file (see `rules_from_dict` for its keys).

    Raises:
        ConfigError: unreadable or malformed file, or unplayable rules.

    """
    p = Path(path)
    data = read_data(p, "rules file")
    if isinstance(data, dict) and isinstance(data.get("rules"), dict):
        data = data["rules"]
    return rules_from_dict({} if data is None else data, source=str(p))


def resolve_rules(spec: str) -> RuleSet:
    """Turn a user's `--preset` value into rules: a preset name, a ROLE=N list, or a file path.

    Raises:
        ConfigError: when none of those fits.

    """
    if "=" in spec:
        return parse_roles_spec(spec)
    if spec.endswith((".toml", ".yaml", ".yml")):
        return load_rules_file(spec)
    return get_preset(spec)
