"""Rules: roles, rule sets and presets. Pure data and functions; no I/O beyond reading a config."""

from lycan.rules.presets import (
    PRESETS,
    get_preset,
    load_rules_file,
    parse_roles_spec,
    preset_names,
    resolve_rules,
    rules_from_dict,
)
from lycan.rules.roles import KEY_ROLES, Role, Species, Team, parse_role, species_of, team_of
from lycan.rules.ruleset import ConfigError, RuleOptions, RuleSet, TalkLimits

__all__ = [
    "KEY_ROLES",
    "PRESETS",
    "ConfigError",
    "Role",
    "RuleOptions",
    "RuleSet",
    "Species",
    "TalkLimits",
    "Team",
    "get_preset",
    "load_rules_file",
    "parse_role",
    "parse_roles_spec",
    "preset_names",
    "resolve_rules",
    "rules_from_dict",
    "species_of",
    "team_of",
]
