"""The learned opinion reader behind the talk reader's rules: trained on the dev sets, measured on held-out ones."""

from __future__ import annotations

import glob
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from lycan.beliefs.claims import RESULT_ROLES
from lycan.beliefs.extract import Labelled, canonical, load_labelled
from lycan.beliefs.opinions import (
    CONFIDENCE,
    KINDS,
    OPINION_KINDS,
    OpinionModel,
    default_claim_model,
    features,
    shipped_ngram_model,
    slot,
)
from lycan.beliefs.reader import MIN_CONFIDENCE, TalkReader
from lycan.train.opinions import claim_examples, examples, train

TALK = Path(__file__).parent / "data" / "talk"
NAMES = ("Rin Sato", "Ken Mori", "Mio Abe", "Ann Lee", "Bob Kay")


def _scores(files: list[Path], *, learned: bool) -> tuple[float, float]:
    """Precision and recall of votes and accusations over the labelled `files`."""
    tally: Counter[str] = Counter()
    for path in files:
        for row in load_labelled(path):
            reader = TalkReader(row.names, learned=learned)
            got = {canonical(s) for s in reader.parse(row.text, row.speaker) if s.kind in ("accuses", "will_vote")}
            gold = {canonical(s) for s in row.gold if s.kind in ("accuses", "will_vote")}
            tally["tp"] += len(got & gold)
            tally["fp"] += len(got - gold)
            tally["fn"] += len(gold - got)
    return tally["tp"] / (tally["tp"] + tally["fp"]), tally["tp"] / (tally["tp"] + tally["fn"])


def test_the_shipped_model_reads_more_votes_and_accusations_on_held_out_talk_at_the_same_precision() -> None:
    """On the held-out sets (never trained on), the learned layer adds recall for about a point of precision.

    Pooled over the 16 held-out sets it adds 7.8 points of recall for 1.6 of precision (0.636 to
    0.714; 0.913 to 0.897); fitted before the dev sets of questions and argued reads, 7.1 for 1.0.
    """
    held_out = sorted(TALK.glob("heldout*.jsonl"))
    assert len(held_out) >= 6
    p_rules, r_rules = _scores(held_out, learned=False)
    p, r = _scores(held_out, learned=True)
    assert r >= r_rules + 0.05, (r, r_rules)
    assert p >= p_rules - 0.02, (p, p_rules)


def test_the_shipped_model_was_trained_on_the_dev_sets_alone() -> None:
    dev = [row for path in sorted(glob.glob(str(TALK / "dev*.jsonl"))) for row in load_labelled(path)]
    model = shipped_ngram_model()
    # the shipped weights use exactly the slots the dev sets' features fill (a held-out line would add its own)
    slots = {slot(f) for feats, _ in examples(dev) for f in feats}
    assert set(model.slots.tolist()) == slots
    claims = {slot(f) for feats, _ in claim_examples(dev) for f in feats}
    assert set(default_claim_model().slots.tolist()) == claims


def test_features_know_the_seat_only_by_its_place_in_the_line() -> None:
    reader = TalkReader(NAMES)
    a = features(reader.sentences("Ken is the wolf, I'm voting Ken."), 1, 0)
    b = features(
        TalkReader(("X", "Yusuf Demir", "Z", "W", "V")).sentences("Yusuf is the wolf, I'm voting Yusuf."), 1, 0
    )
    assert a == b
    assert "TGT" in a and not any("ken" in f for f in a)


def test_training_learns_from_labelled_lines_and_survives_saving(tmp_path: Path) -> None:
    rows = load_labelled(TALK / "dev.jsonl") + load_labelled(TALK / "dev2.jsonl")
    model = train(rows)
    assert model.weights.shape == (len(KINDS), len(model.slots))
    path = tmp_path / "opinions.npz"
    model.save(path)
    again = OpinionModel.load(path)
    reader = TalkReader(NAMES)
    for text, kind in [
        ("Ken is obviously a wolf, voting Ken out today.", "will_vote"),
        ("Ken has been lying all day, total wolf.", "accuses"),
        ("Ken is town, I trust him completely.", "defends"),
    ]:
        p = again.predict(reader.sentences(text), 1, 0)
        assert p[kind] > 0.5, (text, p)
        assert abs(p[kind] - model.predict(reader.sentences(text), 1, 0)[kind]) < 0.01  # float16 weights
    small_talk = again.predict(reader.sentences("Morning Ken, how was your night?"), 1, 0)
    assert max(small_talk.values()) < 0.5, small_talk


def test_training_refuses_data_without_a_kind() -> None:
    rows = [row for row in load_labelled(TALK / "dev.jsonl") if not any(s.kind == "defends" for s in row.gold)]
    with pytest.raises(ValueError, match="defends"):
        train(rows)


def test_the_learned_layer_reads_only_what_the_rules_left_and_never_against_them() -> None:
    names = ("Rin", "Ken", "Mio", "Ann", "Bob")
    learned, rules = TalkReader(names), TalkReader(names, learned=False)
    held_out = [row for path in sorted(TALK.glob("heldout*.jsonl")) for row in load_labelled(path)]
    added = 0
    for row in held_out:
        with_model = TalkReader(row.names).read(row.text, row.speaker)
        alone = TalkReader(row.names, learned=False).read(row.text, row.speaker)
        extra = [r for r in with_model.found if r not in alone.found]
        assert with_model.unread == alone.unread
        about = {s.target for s in alone.statements if s.target is not None}
        claims = {s.role for s in alone.statements if s.kind == "claim"}
        results = [r for r in extra if r.statement.kind in ("divined", "identified", "guarded")]
        claimed = [r for r in extra if r.statement.kind == "claim"]
        # a claim only in a line the rules read none in, and one at most
        assert len(claimed) <= 1 and not (claimed and claims), (row.text, claimed)
        claims |= {r.statement.role for r in claimed}
        for r in results:
            # a result or a protection only from a speaker who claims the role that gets it, and
            # none where the rules read one of that seat; it replaces their opinion of the seat
            assert RESULT_ROLES[r.statement.kind] in claims, (row.text, r)
            assert r.confidence == CONFIDENCE and r.statement.target != row.speaker
            assert not any(
                s.target == r.statement.target and s.kind in ("divined", "identified", "guarded")
                for s in alone.statements
                if s.kind == r.statement.kind or r.statement.kind != "guarded"
            )
        gone = [r for r in alone.found if r not in with_model.found]
        assert all(r.statement.kind in ("accuses", "defends") for r in gone)
        assert {r.statement.target for r in gone} <= {r.statement.target for r in results}
        for r in (r for r in extra if r not in results and r not in claimed):
            # a seat named in an unread clause, one the rules read nothing of, or an accusation of
            # one they read only a vote for
            only_voted = {s.kind for s in alone.statements if s.target == r.statement.target} == {"will_vote"}
            assert (
                r.statement.target not in about
                or any(f"⟨{r.statement.target}⟩" in c for c in alone.unread)
                or (only_voted and r.statement.kind == "accuses")
            )
            assert r.confidence == CONFIDENCE and r.statement.target != row.speaker
            assert r.statement.kind in OPINION_KINDS
            assert f"⟨{r.statement.target}⟩" in r.clause
            opposite = {"accuses": "defends", "will_vote": "defends", "defends": "accuses", "liar": "defends"}[
                r.statement.kind
            ]
            assert all((s.kind, s.target) != (opposite, r.statement.target) for s in alone.statements)
        added += len(extra)
    assert added >= 10
    # a line the rules read whole is theirs alone
    for text in ("I will vote for Ken.", "Ken is lying about being the seer.", "Morning all."):
        assert learned.read(text, 0) == rules.read(text, 0)


def test_the_reader_fit_command_trains_and_writes_weights_the_reader_can_load(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lycan.cli import app

    out = tmp_path / "opinions.npz"
    result = CliRunner().invoke(app, ["beliefs", "reader-fit", str(TALK / "dev.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "trained on" in result.output and "will_vote" in result.output
    assert OpinionModel.load(out).weights.shape[0] == len(KINDS)
    assert OpinionModel.load(tmp_path / "claims.npz").weights.shape[0] == 1
    assert "claims:" in result.output
    missing = CliRunner().invoke(app, ["beliefs", "reader-fit", str(tmp_path / "none.jsonl"), "--out", str(out)])
    assert missing.exit_code != 0 and "none.jsonl" in missing.output


def test_the_rules_vote_stands_and_a_line_gets_one_vote_at_most() -> None:
    names = ("Defne Kaya", "Laleh Rad", "Ann Lee", "Bob Kay", "Cem Oz")
    text = "Defne protecting Laleh twice is a convenient story... I won't vote Laleh today, I'm voting Defne."
    votes = [s for s in TalkReader(names).parse(text, 4) if s.kind == "will_vote"]
    assert [v.target for v in votes] == [0]
    readers: dict[tuple[tuple[str, ...], bool], TalkReader] = {}

    def votes_read(row: Labelled, learned: bool) -> int:
        key = (tuple(row.names), learned)
        reader = readers.get(key) or readers.setdefault(key, TalkReader(row.names, learned=learned))
        return sum(s.kind == "will_vote" for s in reader.parse(row.text, row.speaker))

    for row in (row for path in sorted(TALK.glob("*.jsonl")) for row in load_labelled(path)):
        assert votes_read(row, True) <= max(1, votes_read(row, False)), row.text


def test_an_empty_model_reads_its_bias() -> None:
    empty = OpinionModel(np.zeros(0, dtype=np.int64), np.zeros((len(KINDS), 0), dtype=np.float32), np.zeros(len(KINDS)))
    assert empty.predict(TalkReader(NAMES).sentences("Ken is the wolf."), 1, 0) == dict.fromkeys(KINDS, 0.5)


def test_the_learned_layer_reads_a_plain_sentence_the_rules_read_nothing_of_and_not_what_others_do() -> None:
    names = ("Rin", "Ken", "Mio", "Ann", "Bob")
    plain = "Ken has been really helpful and consistent all game."
    assert not TalkReader(names, learned=False).parse(plain, 0)
    assert {(s.kind, s.target) for s in TalkReader(names).parse(plain, 0)} == {("defends", 1)}
    for text in (
        "Ann votes Ken every day.",  # what another seat does
        "The wolves vote Ken every single day.",
        "Has Ken been super helpful and consistent?",  # asked
        "If Ken has been super helpful and consistent, fine.",  # supposed
        "Mio says Ken has been super helpful and consistent.",  # someone else's words
    ):
        assert not TalkReader(names).parse(text, 0), text


def _results(reader: TalkReader, text: str, claimed: str = "") -> set[tuple[str, int, str]]:
    return {
        (s.kind, s.target, s.species.value if s.species else "")
        for s in reader.parse(text, 0, claimed)
        if s.kind in ("divined", "identified", "guarded") and s.target is not None
    }


def test_the_learned_layer_reads_results_in_words_no_rule_knows_from_the_role_that_gets_them() -> None:
    names = ("Rin Sato", "Ken Mori", "Mio Abe", "Ann Lee", "Bob Kay")
    reader, rules = TalkReader(names), TalkReader(names, learned=False)
    seer = "I'm the seer. My lantern found Ken Mori last night, all human."
    assert _results(reader, seer) == {("divined", 1, "human")}
    assert not _results(rules, seer)
    # the result is the seer's, not an opinion of Ken as well
    assert not {s for s in reader.parse(seer, 0) if s.kind in ("defends", "accuses")}
    # the same words from a seat that claims no such role, or claims the medium, say no divination
    said = "My lantern found Ken Mori last night, all human."
    assert not _results(reader, said)
    assert _results(reader, said, "seer") == {("divined", 1, "human")}
    assert _results(reader, said, "medium") <= {("identified", 1, "human")}
    assert not _results(reader, said, "villager")
    assert _results(reader, "I'm the seer. Last night I went to Ken and saw a wolf.") == {("divined", 1, "werewolf")}
    # asked, supposed, or someone else's: nothing
    for text in (
        "I'm the seer. Did my lantern find Ken Mori all human?",
        "I'm the seer. Mio says her lantern found Ken Mori last night, all human.",
        "I'm the seer. If my lantern had found Ken Mori last night, all human, I'd say so.",
    ):
        assert not _results(reader, text), text


def test_the_learned_layer_reads_a_claim_in_words_no_rule_knows_and_never_a_second_one() -> None:
    names = ("Rin Sato", "Ken Mori", "Mio Abe", "Ann Lee", "Bob Kay")
    reader, rules = TalkReader(names), TalkReader(names, learned=False)

    def claims(r: TalkReader, text: str) -> set[str]:
        return {s.role for s in r.parse(text, 0) if s.kind == "claim"}

    for text, role in (
        ("I act as the medium at this table. Ken, executed yesterday, read as human.", "medium"),
        ("Role disclosure: bodyguard. My shield went to Mio last night.", "guardian"),
    ):
        assert not claims(rules, text), text
        assert claims(reader, text) == {role}, text
    # asked or supposed: no claim; a line the rules read a claim in gets no second one
    for text in ("Should the medium act at this table now?", "If I were the bodyguard I'd shield Mio."):
        assert not claims(reader, text), text
    both = "I'm the seer. Role disclosure from Ken: bodyguard."
    assert claims(reader, both) == claims(rules, both) == {"seer"}


def test_a_vote_with_a_reason_is_an_accusation_too_but_not_a_vote_with_nothing_against() -> None:
    names = ("Rin Sato", "Ken Mori", "Mio Abe", "Ann Lee", "Bob Kay")
    reader, rules = TalkReader(names), TalkReader(names, learned=False)
    reasoned = "I'm voting Ken, his story keeps changing every time he talks."
    for r in (rules, reader):
        assert {(s.kind, s.target) for s in r.parse(reasoned, 0)} == {("will_vote", 1), ("accuses", 1)}
    # below the evidence's bar: the vote already gives the belief engine the seat's pick
    (accusation,) = (f for f in rules.read(reasoned, 0).found if f.statement.kind == "accuses")
    assert accusation.confidence < MIN_CONFIDENCE
    for plain in ("Voting Ken. Nice guy, nothing against him, just a coin flip.", "Ken has my vote, sorry Ken."):
        assert not any(s.kind == "accuses" for s in reader.parse(plain, 0)), plain


def test_the_learned_layer_calls_a_liar_with_the_role_said_beside_the_seat_and_not_a_seat_that_acted() -> None:
    names = ("Rin Sato", "Ken Mori", "Mio Abe", "Ann Lee", "Bob Kay")
    reader, rules = TalkReader(names), TalkReader(names, learned=False)
    text = "Ken's seer story is pure theatre, not buying a word of it."
    assert not rules.parse(text, 0)
    assert {(s.kind, s.target, s.role) for s in reader.parse(text, 0)} == {("liar", 1, "seer")}
    # no role word, or two different ones: no liar call (the role it fakes is not known)
    assert not any(s.kind == "liar" for s in reader.parse("Ken's story is pure theatre, not buying a word of it.", 0))
    assert not any(s.kind == "liar" for s in reader.parse("Ken flagged the fake seer first.", 0))
