from pathlib import Path

import pytest

from lycan.rules import (
    ConfigError,
    Role,
    RuleOptions,
    RuleSet,
    Species,
    Team,
    get_preset,
    load_rules_file,
    parse_role,
    parse_roles_spec,
    preset_names,
    resolve_rules,
    rules_from_dict,
    species_of,
    team_of,
)

W, P, S, M, G, WI, H, V = (
    Role.WEREWOLF,
    Role.POSSESSED,
    Role.SEER,
    Role.MEDIUM,
    Role.GUARDIAN,
    Role.WITCH,
    Role.HUNTER,
    Role.VILLAGER,
)


# ----------------------------------------------------------------------------- roles
def test_teams_and_species() -> None:
    assert team_of(W) is Team.WEREWOLF
    assert team_of(P) is Team.WEREWOLF
    for role in (S, M, G, WI, H, V):
        assert team_of(role) is Team.VILLAGE
    assert species_of(W) is Species.WEREWOLF
    assert species_of(P) is Species.HUMAN  # the possessed is divined human
    assert all(species_of(r) is Species.HUMAN for r in (S, M, G, WI, H, V))


def test_role_names_and_aliases() -> None:
    assert parse_role("Werewolf") is W
    assert parse_role(" bodyguard ") is G
    assert parse_role("madman") is P
    with pytest.raises(ValueError, match="unknown role 'ghost'; known roles are werewolf"):
        parse_role("ghost")


# ----------------------------------------------------------------------------- presets
PRESET_ROLES = {
    "aiwolf5": {W: 1, P: 1, S: 1, V: 2},
    "aiwolf13": {W: 3, P: 1, S: 1, G: 1, M: 1, V: 6},
    "witch6": {W: 2, S: 1, WI: 1, V: 2},
    "guardian7": {W: 2, S: 1, G: 1, V: 3},
    "guardian5": {W: 1, S: 1, G: 1, V: 2},
}


def test_preset_names() -> None:
    assert preset_names() == list(PRESET_ROLES)


@pytest.mark.parametrize("name", list(PRESET_ROLES))
def test_preset_role_counts(name: str) -> None:
    rules = get_preset(name)
    assert rules.name == name
    assert rules.roles == PRESET_ROLES[name]
    assert rules.n_players == sum(PRESET_ROLES[name].values())
    deck = rules.deck()
    assert sorted(deck) == sorted(r for r, c in PRESET_ROLES[name].items() for _ in range(c))


def test_aiwolf_options() -> None:
    for name, per_day in (("aiwolf5", 20), ("aiwolf13", 52)):
        opts = get_preset(name).options
        assert opts.discussion == "aiwolf"
        assert opts.greeting is True
        assert opts.first_night_attack is False
        assert opts.tie_break == "random"
        assert opts.talk.per_agent == 4
        assert opts.talk.per_day == per_day
        assert opts.talk.max_length == 0  # the contest servers set per_talk: -1 (no cap)
        assert opts.allow_self_vote is True
        assert opts.guardian_repeat is True
        assert opts.guardian_self is False


def test_seed_001_and_002_options() -> None:
    for name in ("witch6", "guardian7", "guardian5"):
        opts = get_preset(name).options
        assert opts == RuleOptions()
        assert opts.tie_break == "revote_then_random"
        assert opts.guardian_repeat is False
        assert opts.guardian_self is False
        assert opts.witch_self_save is False
        assert opts.reveal_role_on_death is False
        assert opts.greeting is False
        assert opts.first_night_attack is True
        assert opts.discussion == "round_robin"


def test_witch_n() -> None:
    rules = get_preset("witch9")
    assert rules.name == "witch9"
    assert rules.roles == {W: 2, S: 1, WI: 1, V: 5}
    assert get_preset(" WITCH6 ").roles == PRESET_ROLES["witch6"]


@pytest.mark.parametrize("name", ["witch5", "witch60"])
def test_witch_n_out_of_range(name: str) -> None:
    with pytest.raises(ConfigError) as err:
        get_preset(name)
    assert "6 to 50 players" in _one_sentence(err.value)


def test_describe() -> None:
    assert get_preset("guardian7").describe() == "guardian7: 2 werewolf, 1 seer, 1 guardian, 3 villager"


def test_team_size() -> None:
    rules = get_preset("aiwolf13")
    assert rules.team_size("werewolf") == 4
    assert rules.team_size("village") == 9


# ----------------------------------------------------------------------------- custom deals
def test_roles_spec() -> None:
    rules = parse_roles_spec("werewolf=2, seer=1,guardian=1,villager=3")
    assert rules.name == "custom"
    assert rules.roles == PRESET_ROLES["guardian7"]
    assert parse_roles_spec("wolf=1,wolf=1,villager=4,hunter=1").roles == {W: 2, V: 4, H: 1}
    assert parse_roles_spec("werewolf=1,villager=3,witch=0").roles == {W: 1, V: 3}


def test_resolve_rules_dispatch(tmp_path: Path) -> None:
    assert resolve_rules("guardian5").roles == PRESET_ROLES["guardian5"]
    assert resolve_rules("werewolf=1,seer=1,villager=3").roles == {W: 1, S: 1, V: 3}
    f = tmp_path / "r.yaml"
    f.write_text("roles: {werewolf: 1, villager: 3}\n")
    assert resolve_rules(str(f)).roles == {W: 1, V: 3}


def test_rules_from_dict_preset_and_overrides() -> None:
    rules = rules_from_dict({"preset": "guardian7", "options": {"guardian_repeat": True, "tie_break": "random"}})
    assert rules.name == "guardian7"
    assert rules.roles == PRESET_ROLES["guardian7"]
    assert rules.options.guardian_repeat is True
    assert rules.options.tie_break == "random"
    assert rules.options.discussion == "round_robin"
    custom = rules_from_dict({"preset": "aiwolf5", "roles": {"werewolf": 1, "villager": 5}})
    assert custom.name == "custom"
    assert custom.options.discussion == "aiwolf"
    named = rules_from_dict({"name": "mine", "roles": {"werewolf": 1, "villager": 3}})
    assert named.name == "mine"


def test_yaml_file(tmp_path: Path) -> None:
    f = tmp_path / "rules.yaml"
    f.write_text(
        "name: village9\n"
        "roles:\n  werewolf: 2\n  seer: 1\n  witch: 1\n  hunter: 1\n  villager: 4\n"
        "options:\n  witch_self_save: true\n  discussion: bidding\n  talk: {max_turns: 12}\n"
    )
    rules = load_rules_file(f)
    assert rules.name == "village9"
    assert rules.roles == {W: 2, S: 1, WI: 1, H: 1, V: 4}
    assert rules.options.witch_self_save is True
    assert rules.options.discussion == "bidding"
    assert rules.options.talk.max_turns == 12


def test_toml_file_with_rules_table(tmp_path: Path) -> None:
    f = tmp_path / "rules.toml"
    f.write_text(
        '[rules]\npreset = "witch6"\n[rules.options]\nreveal_role_on_death = true\nwitch_both_same_night = false\n'
    )
    rules = load_rules_file(f)
    assert rules.roles == PRESET_ROLES["witch6"]
    assert rules.options.reveal_role_on_death is True
    assert rules.options.witch_both_same_night is False


def test_rule_set_round_trips_through_json() -> None:
    for name in preset_names():
        rules = get_preset(name)
        assert RuleSet.model_validate(rules.model_dump(mode="json")) == rules


# ----------------------------------------------------------------------------- errors for people
def _one_sentence(err: ConfigError) -> str:
    text = str(err)
    assert "\n" not in text
    assert "Traceback" not in text
    assert 10 < len(text) < 300
    return text


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("guardian8", "unknown preset 'guardian8'"),
        ("werewolf=0,villager=4", "at least one werewolf"),
        ("seer=1,villager=4", "at least one werewolf"),
        ("werewolf=2,villager=2", "parity"),
        ("werewolf=2,villager=1,seer=1", "parity"),
        ("werewolf=1,ghost=3", "unknown role 'ghost'"),
        ("werewolf=1,villager", "ROLE=COUNT"),
        ("werewolf=1,villager=many", "ROLE=COUNT"),
        ("werewolf=1,villager=80", "50"),
        ("nofile.yaml", "cannot read rules file"),
    ],
)
def test_bad_specs(spec: str, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        resolve_rules(spec)
    assert words in _one_sentence(err.value)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("bad.yaml", "roles: [werewolf: 1\n", "is not valid YAML"),
        ("bad.toml", "roles = {werewolf = \n", "is not valid TOML"),
        ("list.yaml", "- werewolf\n- villager\n", "expected a table of settings"),
        ("scalar.yaml", "5\n", "expected a table of settings"),
        ("words.yaml", "my rules\n", "expected a table of settings"),
        ("unknown.yaml", "roles: {werewolf: 1, villager: 3}\ncolour: red\n", "unknown key(s) colour"),
        ("option.yaml", "preset: guardian7\noptions: {tie_breaker: random}\n", "tie_breaker"),
        ("optlist.yaml", "preset: guardian7\noptions: [1, 2]\n", "options"),
        ("badproto.yaml", "preset: guardian7\noptions: {discussion: shouting}\n", "unknown discussion protocol"),
        ("badtie.yaml", "preset: guardian7\noptions: {tie_break: coin}\n", "tie_break"),
        ("noroles.yaml", "name: x\n", "give a preset or a roles table"),
        ("negative.yaml", "roles: {werewolf: 1, villager: -3, seer: 5}\n", "negative"),
        ("parity.toml", "[roles]\nwerewolf = 3\nvillager = 3\n", "parity"),
        ("nowolf.toml", "[roles]\nvillager = 5\n", "at least one werewolf"),
        ("badpreset.toml", 'preset = "arena9"\n', "unknown preset 'arena9'"),
    ],
)
def test_bad_files(tmp_path: Path, name: str, text: str, words: str) -> None:
    f = tmp_path / name
    f.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_rules_file(f)
    assert words in _one_sentence(err.value)


def test_empty_file_names_itself_once(tmp_path: Path) -> None:
    f = tmp_path / "empty.yaml"
    f.write_text("")
    with pytest.raises(ConfigError) as err:
        load_rules_file(f)
    text = _one_sentence(err.value)
    assert text.count("empty.yaml") == 1
    assert "give a preset or a roles table" in text


def test_file_that_is_not_text(tmp_path: Path) -> None:
    f = tmp_path / "binary.yaml"
    f.write_bytes(b"\xff\xfe\x00roles")
    with pytest.raises(ConfigError) as err:
        load_rules_file(f)
    assert "binary.yaml" in _one_sentence(err.value)


def test_config_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        get_preset("nope")


def test_talk_length_and_role_names_each_live_once() -> None:
    from lycan.agents import memory, speech
    from lycan.rules.talk import spoken_length
    from lycan.web import messages

    assert speech.text_length is spoken_length and messages.spoken_length is spoken_length
    assert spoken_length(" a b\tc\n") == 3
    parser = speech.parser_for(("Ann", "Bob"))
    cases = (("I am the bodyguard.", "guardian"), ("I am the diviner.", "seer"), ("I am the guardian.", "guardian"))
    for said, role in cases:
        claims = [s for s in parser.parse(said) if s.kind == "claim"]
        assert [c.role for c in claims] == [role], said
    # the LLM players' notes read claims through the same aliases (lycan.rules.roles.ROLE_ALIASES)
    assert memory._claims("Ann", "I am the guard and Bob is a madman", ("Ann", "Bob")) == [
        "Ann claimed guardian",
        "Ann said Bob is possessed",
    ]
