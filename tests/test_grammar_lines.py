"""The agents' own talk as labelled lines for the learned readers (`lycan.train.grammar`)."""

from __future__ import annotations

from lycan.agents.persona import AI_NAMES
from lycan.agents.prompt import UTTERANCE_CHARS
from lycan.agents.wording import _MOURNING, _QUIET, expansions
from lycan.beliefs.reader import reader_for
from lycan.rules import get_preset
from lycan.rules.talk import spoken_length
from lycan.train.grammar import grammar_lines
from lycan.train.opinions import encoder_examples


def test_the_grammars_own_lines_read_as_their_acts_state_at_both_kinds_of_table() -> None:
    rows = grammar_lines(4, seed=1)
    assert len(rows) > 40
    assert rows == grammar_lines(4, seed=1)  # the same games, personas and wordings
    tables = {r.names for r in rows}
    assert {len(t) for t in tables} == {5, 7}
    assert any(t[0] == "Player 1" for t in tables) and any(set(t) <= set(AI_NAMES) for t in tables)
    for row in rows:
        # a wording the checks passed: the reader reads in it what the acts' template words state
        assert set(reader_for(row.names).parse(row.text, row.speaker)) == set(row.gold), row
        assert row.split == "grammar" and "," not in row.text
        limit = get_preset("guardian7" if len(row.names) == 7 else "aiwolf5").options.talk.max_length
        assert 0 < spoken_length(row.text) <= (limit or UTTERANCE_CHARS), row  # the limit the seat had
    # a morning's first turn may open with the night's news, as the seat saw the morning when it spoke
    news = [
        x.format(dead=name, **{"is": "is", "was": "was"})
        for frames in _MOURNING.values()
        for frame in frames
        for x in expansions(frame)
        for name in {n for r in rows for n in r.names}
    ]
    news += [x for frames in _QUIET.values() for frame in frames for x in expansions(frame)]
    assert any(r.text.startswith(x) for r in rows for x in news)
    # conversation that states nothing about the seats it names is part of them (questions, agreement)
    quiet = [r for r in rows if not r.gold and any(n in r.text for n in r.names)]
    assert len(quiet) >= 5, [r.text for r in rows if not r.gold]
    assert any(not gold["accuses"] and not gold["defends"] for _, gold in encoder_examples(quiet))
    assert sum(bool(r.gold) for r in rows) > len(rows) / 3  # and claims, results, votes and suspicions
