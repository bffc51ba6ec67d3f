"""The sentence-encoder reader behind the talk reader's rules (`lycan.beliefs.encoder`, `LYCAN_TALK_MODEL=encoder`)."""

from __future__ import annotations

import os
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import test_talk_reader as talk
import test_wording
from lycan.beliefs import talk_model
from lycan.beliefs.encoder import EncoderOpinionModel, encoder_text, shipped_encoder_model
from lycan.beliefs.extract import load_labelled, read_in_table, scored
from lycan.beliefs.opinions import KINDS, OpinionModel
from lycan.beliefs.talk_model import TALK_MODEL_ENV, default_model, talk_model_set
from lycan.cli import app
from lycan.train.opinions import encoder_examples

TALK = Path(__file__).parent / "data" / "talk"
TUNED_ON = [
    *(TALK / f"dev{n}.jsonl" for n in ("", *range(2, 17))),
    *(TALK / f"heldout{n}.jsonl" for n in ("", 2, 3, 5, 6, 7, 8, 9, 10, 11, 14)),
]
"""What the shipped encoder was tuned on besides the agents' own talk (`lycan.train.grammar`, 100
games): the dev sets and the held-out sets measured at earlier freezes."""
UNSEEN = [str(TALK / f"heldout{n}.jsonl") for n in (12, 13, 15, 17, 19)]
"""Held-out sets the encoder was never tuned on and whose lines were never read: they measure it."""
VOTES = ("will_vote", "accuses")


def _scores(files: list[str], kinds: tuple[str, ...]) -> tuple[float, float]:
    tp = fp = fn = 0
    for path in files:
        rows = load_labelled(path)
        for row, got in zip(rows, read_in_table(rows), strict=True):
            a = Counter(s for s in scored(got) if s.kind in kinds)
            b = Counter(s for s in scored(row.gold) if s.kind in kinds)
            hit = sum((a & b).values())
            tp, fp, fn = tp + hit, fp + sum(a.values()) - hit, fn + sum(b.values()) - hit
    return tp / max(tp + fp, 1), tp / max(tp + fn, 1)


def test_the_text_reads_the_seat_asked_about_the_speaker_and_the_others_alike_at_every_table() -> None:
    a = encoder_text(["⟨3⟩ is a wolf, ⟨1⟩ knows it.", "i vote ⟨3⟩."], 3, 1, {"seer"})
    b = encoder_text(["⟨0⟩ is a wolf, ⟨4⟩ knows it.", "i vote ⟨0⟩."], 0, 4, {"seer"})
    assert a == b == "speaker role: seer. Sam is a wolf, me knows it. i vote Sam ."  # (as it was trained)
    # the seatless sentence after one naming the seat is read with it ("Checked Ken. Human.")
    assert encoder_text(["checked ⟨2⟩.", "human.", "⟨5⟩ is quiet."], 2, 0) == "speaker role: none. checked Sam . human."
    assert encoder_text(["⟨2⟩ and ⟨5⟩ are wolves."], 5, 0) == "speaker role: none. Alex and Sam are wolves."


def test_the_shipped_encoder_reads_every_kind_of_its_table() -> None:
    model = shipped_encoder_model()
    p = model.predict(["i'm voting ⟨2⟩, the wind carries me to ⟨2⟩."], 2, 0)
    assert set(p) == set(KINDS) and all(0.0 <= x <= 1.0 for x in p.values())
    assert p["will_vote"] > 0.7 and p["defends"] < 0.3
    trusted = model.predict(["⟨2⟩ has been honest and helpful all game, i trust them."], 2, 0)
    assert trusted["defends"] > 0.7 and trusted["accuses"] < 0.3
    assert model.predict(["⟨2⟩ has been honest and helpful all game, i trust them."], 2, 0) == trusted  # cached


def test_the_variable_picks_the_learned_reader_and_a_wrong_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TALK_MODEL_ENV, raising=False)
    assert isinstance(default_model(), EncoderOpinionModel)  # the default, where the train extra is installed
    monkeypatch.setenv(TALK_MODEL_ENV, "ngram")
    assert isinstance(default_model(), OpinionModel)
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    assert isinstance(default_model(), EncoderOpinionModel)
    monkeypatch.setenv(TALK_MODEL_ENV, "bert")
    with pytest.raises(ValueError, match="choose one of auto, ngram, encoder"):
        default_model()


def test_a_block_reads_with_the_model_it_names_and_leaves_the_process_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(TALK_MODEL_ENV, raising=False)
    with talk_model_set("ngram"):
        assert isinstance(default_model(), OpinionModel)
    assert TALK_MODEL_ENV not in os.environ and isinstance(default_model(), EncoderOpinionModel)
    monkeypatch.setenv(TALK_MODEL_ENV, "ngram")
    with pytest.raises(KeyError), talk_model_set("encoder"):
        assert isinstance(default_model(), EncoderOpinionModel)
        raise KeyError("left by an error")
    assert os.environ[TALK_MODEL_ENV] == "ngram"


def test_without_the_train_extra_the_hashed_model_reads_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import lycan.beliefs.encoder as encoder

    def missing() -> Any:
        raise RuntimeError("the encoder reader needs the train extra: pip install 'lycan[train]'")

    monkeypatch.setattr(encoder, "shipped_encoder_model", missing)
    talk_model._talk_model.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="the talk reader uses its hashed model"):
            model = talk_model._talk_model("encoder")
        assert isinstance(model, OpinionModel)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # by default it falls back without a word
            assert isinstance(talk_model._talk_model("auto"), OpinionModel)
    finally:
        talk_model._talk_model.cache_clear()


def test_the_encoder_reads_more_votes_and_accusations_on_held_out_talk_at_the_same_precision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On held-out sets neither model was trained on, the encoder finds more than the hashed model, as surely."""
    files = UNSEEN
    monkeypatch.setenv(TALK_MODEL_ENV, "ngram")
    p_ngram, r_ngram = _scores(files, VOTES)
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    p_enc, r_enc = _scores(files, VOTES)
    assert r_enc >= r_ngram + 0.04, (r_enc, r_ngram)
    assert p_enc >= p_ngram - 0.015, (p_enc, p_ngram)


@pytest.mark.parametrize(("text", "kept"), talk.test_talk_is_data_never_instructions.pytestmark[0].args[1])
def test_with_the_encoder_talk_is_still_data_never_instructions(
    text: str, kept: set[tuple[str, str | None, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    assert talk.said(text, speaker=0) == kept


@pytest.mark.parametrize("text", talk.test_what_is_not_the_speakers_own_statement_yields_nothing.pytestmark[0].args[1])
def test_with_the_encoder_what_is_not_the_speakers_own_yields_nothing(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    assert talk.said(text, speaker=6 if "Ken" not in text else 4) == set()


def test_reader_fit_tunes_an_encoder_that_loads_and_reads(tmp_path: Path) -> None:
    small = tmp_path / "small.jsonl"
    small.write_text("".join((TALK / "dev.jsonl").read_text().splitlines(keepends=True)[:80]))
    out = tmp_path / "encoder"
    done = CliRunner().invoke(
        app,
        [
            "beliefs", "reader-fit", str(small), "--out", str(tmp_path / "o.npz"),
            "--encoder-out", str(out), "--epochs", "2", "--grammar-games", "2",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    losses = [float(x) for x in re.findall(r"epoch \d/2: loss ([\d.]+)", done.output)]
    assert len(losses) == 2 and losses[-1] < losses[0], done.output  # it learns
    own = int(re.search(r"the speech grammar's own lines: (\d+) from 2 games", done.output)[1])  # type: ignore[index]
    assert own > 20, done.output
    assert not (out / "README.md").exists() and str(tmp_path) not in (out / "adapter_config.json").read_text()
    model = EncoderOpinionModel.load(out)
    text, _ = encoder_examples(load_labelled(small))[0]
    assert text.startswith("speaker role: ")
    assert set(model.predict(["i vote ⟨1⟩."], 1, 0)) == set(KINDS)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "config.json").write_text('{"kinds": ["accuses"]}')
    with pytest.raises(ValueError, match="not"):
        EncoderOpinionModel.load(bad)


def test_a_game_of_belief_driven_seats_reads_its_talk_with_the_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default where the train extra is installed: a whole game, every view's beliefs read through it."""
    from lycan.agents import lineup
    from lycan.engine import run_sync
    from lycan.engine.events import Fault
    from lycan.rules import get_preset

    monkeypatch.delenv(TALK_MODEL_ENV, raising=False)
    model = default_model()
    assert isinstance(model, EncoderOpinionModel)
    # the model is one per process: what earlier tests had it read (any file, on this worker) is forgotten first
    model._probs.cache_clear()
    rules = get_preset("guardian7")
    record = run_sync(rules, lineup(["heuristic-beliefs"] * rules.n_players, 5), 5)
    assert record.winner in ("village", "werewolf")
    assert not [e for e in record.events if isinstance(e, Fault)]
    assert model._probs.cache_info().misses > 0  # the encoder was asked about the table's talk


def test_a_reader_asks_the_learned_reader_in_use_not_the_one_that_read_the_line_before() -> None:
    """A table's reader is shared within a process and keeps its readings.

    Switching `LYCAN_TALK_MODEL` returned the hashed model's reading of a line to a game that asked for the
    encoder's (a test of the encoder failed once another file on its worker had played the same game).
    """
    from lycan.beliefs.reader import TalkReader

    reader, plain = (
        TalkReader(("Rin", "Ken", "Mio", "Ann", "Bob")),
        "Ken has been really helpful and consistent all game.",
    )
    with talk_model_set("ngram"):
        reader.parse(plain, 0)
    model = shipped_encoder_model()
    model._probs.cache_clear()
    with talk_model_set("encoder"):
        reader.parse(plain, 0)
    assert model._probs.cache_info().misses > 0


def test_the_shipped_encoder_was_tuned_on_its_training_sets_alone() -> None:
    import json
    from importlib import resources

    tuned_on = [row for path in TUNED_ON for row in load_labelled(path)]
    folder = resources.files("lycan.beliefs") / "params" / "opinions_encoder"
    config = json.loads((folder / "config.json").read_text())
    # every named seat of its training sets, and no more: a set that measures it would add hundreds of its
    # own (the count drifts by a few where the reader since resolves a name it did not, "Emma" for Emma-Louise)
    n = len(encoder_examples(tuned_on))
    assert abs(config["examples"] - config["own_examples"] - n) <= 0.002 * n, (config["examples"], n)
    assert config["own_examples"] > 0.2 * n  # and the table's own talk, so that it reads the agents as they mean
    assert len(encoder_examples(load_labelled(UNSEEN[0]))) > 100
    assert config["kinds"] == list(KINDS) and 0.5 <= config["threshold"] < 1


def test_loading_the_encoder_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    """A game's output is the game: no progress bar or library deprecation when the reader loads."""
    from importlib import resources

    with resources.as_file(resources.files("lycan.beliefs") / "params" / "opinions_encoder") as path:
        EncoderOpinionModel.load(path)
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)


@pytest.mark.parametrize(
    ("text", "expected"), talk.test_handing_a_seat_the_word_says_nothing_of_it.pytestmark[0].args[1]
)
def test_with_the_encoder_handing_a_seat_the_word_says_nothing_of_it(
    text: str, expected: set[tuple[str, str | None, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    assert talk.said(text) == expected


@pytest.mark.parametrize("acts", test_wording.TURNS, ids=lambda acts: "+".join(a.kind for a in acts))
def test_with_the_encoder_a_turns_template_reads_as_its_acts_each_read_alone(
    acts: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    test_wording.test_a_turns_template_reads_as_its_acts_each_read_alone(acts)


@pytest.mark.parametrize("dead", ["Player 6", "Player 6 and Player 7"])
def test_with_the_encoder_the_nights_news_states_nothing(dead: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mourning a seat is no vote for it nor a defence ("Sleep well Player 6.", "Let's win this for Player 6!")."""
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    test_wording.test_the_nights_news_names_only_the_dead_and_states_nothing(dead)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a question that asks says nothing of the seat it asks
        ("Ken, what was your result last night?", set()),
        ("Why did you vote Mio yesterday, Ken?", set()),
        ("Mio, are you a wolf? Just tell us.", set()),
        # nor does a report of someone else's words, or a guess between two seats
        ("Ken said Mio is a wolf.", set()),
        ("So I think Ken or Mio is the wolf.", set()),
    ],
)
def test_with_the_encoder_questions_that_ask_and_guesses_between_seats_say_nothing(
    text: str, expected: set[tuple[str, str | None, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TALK_MODEL_ENV, "encoder")
    assert talk.said(text) == expected
