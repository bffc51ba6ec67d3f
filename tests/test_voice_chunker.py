from hypothesis import given, settings
from hypothesis import strategies as st

from lycan.voice.chunker import ClauseChunker, weight


def stream(text: str, pieces: list[int], min_chars: int = 12) -> list[str]:
    """Feed `text` cut at the given offsets; return every clause, flush included."""
    chunker = ClauseChunker(min_chars=min_chars)
    out: list[str] = []
    start = 0
    for cut in sorted(set(pieces)):
        out += chunker.feed(text[start:cut])
        start = cut
    out += chunker.feed(text[start:])
    return out + chunker.flush()


def test_ascii_punctuation_ends_clauses():
    text = "I was home all night, I swear. Who attacked him? Not me! Listen; here is my point: vote Bob."
    assert ClauseChunker(min_chars=4).split(text) == [
        "I was home all night,",
        "I swear.",
        "Who attacked him?",
        "Not me!",
        "Listen;",
        "here is my point:",
        "vote Bob.",
    ]


def test_short_clauses_merge_with_the_next():
    assert ClauseChunker(min_chars=12).split("Yes, I agree. No. Well, maybe we should wait.") == [
        "Yes, I agree.",
        "No. Well, maybe we should wait.",
    ]


def test_abbreviations_numbers_and_player_numbers_stay_whole():
    text = "Mr. Smith said 3.5 votes, or 3,000 votes, e.g. many. I suspect Player 3. He lied to J. Doe today."
    clauses = ClauseChunker(min_chars=4).split(text)
    assert clauses == [
        "Mr. Smith said 3.5 votes,",
        "or 3,000 votes,",
        "e.g. many.",
        "I suspect Player 3.",
        "He lied to J. Doe today.",
    ]


def test_period_before_lower_case_word_does_not_split():
    assert ClauseChunker(min_chars=4).split("I think Player 3. is lying to us. Really.") == [
        "I think Player 3. is lying to us.",
        "Really.",
    ]


def test_cjk_punctuation_and_newlines():
    text = "我觉得三号玩家是狼人，因为他昨天投票很奇怪。你们怎么看？我是预言家！\nSeer here: trust me"
    clauses = ClauseChunker(min_chars=8).split(text)
    assert clauses == [
        "我觉得三号玩家是狼人，",
        "因为他昨天投票很奇怪。",
        "你们怎么看？",
        "我是预言家！",
        "Seer here:",
        "trust me",
    ]
    assert weight("狼人") == 4


def test_enumeration_comma_and_closing_quotes():
    clauses = ClauseChunker(min_chars=4).split('「我是村民。」他说、然后走了。He said "wait." Then left.')
    assert clauses == ["「我是村民。」", "他说、", "然后走了。", 'He said "wait."', "Then left."]


def test_clause_comes_out_as_soon_as_it_ends_not_at_flush():
    chunker = ClauseChunker(min_chars=8)
    assert chunker.feed("I vote for Alice") == []
    assert chunker.feed(", because") == ["I vote for Alice,"]
    assert chunker.feed(" she lied.") == []  # may still be "she lied.5" or "Mr."-like: wait for the next char
    assert chunker.feed(" And") == ["because she lied."]
    assert chunker.flush() == ["And"]


def test_pieces_split_mid_word_and_mid_number():
    pieces = ["Play", "er 3", ".", "5 is od", "d, I th", "ink. M", "r", ". Bob a", "gre", "es."]
    chunker = ClauseChunker(min_chars=4)
    out: list[str] = []
    for piece in pieces:
        out += chunker.feed(piece)
    out += chunker.flush()
    assert out == ["Player 3.5 is odd,", "I think.", "Mr. Bob agrees."]


def test_long_text_without_punctuation_is_cut_at_a_space():
    words = " ".join(["wolf"] * 100)
    clauses = ClauseChunker(min_chars=4, max_chars=50).split(words)
    assert len(clauses) > 5
    assert all(len(c) <= 50 for c in clauses)
    assert " ".join(clauses) == words


def test_flush_empties_and_ignores_blank_text():
    chunker = ClauseChunker()
    assert chunker.split("  \n\n ") == []
    assert chunker.pending == ""


SENTENCES = st.lists(
    st.sampled_from(
        [
            "I am the seer.",
            "Player 3 is a werewolf, trust me.",
            "Mr. Green voted 2.5 times?",
            "我是预言家。",
            "Why would you say that!",
            "Well, no.",
            "Think about it; the vote was odd:",
        ]
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(SENTENCES, st.lists(st.integers(min_value=0, max_value=200), max_size=30))
def test_piece_boundaries_never_change_the_clauses(sentences, cuts):
    text = " ".join(sentences)
    whole = ClauseChunker().split(text)
    assert stream(text, [c for c in cuts if c <= len(text)]) == whole
    assert " ".join(whole).replace(" ", "") == text.replace(" ", "")
    assert all(weight(c) >= 12 for c in whole[:-1])


def test_first_words_cuts_only_the_first_clause_early() -> None:
    chunker = ClauseChunker(first_words=4)
    out: list[str] = []
    pieces = ["Well I have been ", "thinking about ", "yesterday and something ", "does not add up. ", "Next one, ok"]
    for piece in pieces:
        out += chunker.feed(piece)
    out += chunker.flush()
    assert out[0] == "Well I have been"
    assert out[1] == "thinking about yesterday and something does not add up."
    assert "".join(out).replace(" ", "") == "WellIhavebeenthinkingaboutyesterdayandsomethingdoesnotaddup.Nextone,ok"
    eager = ClauseChunker(first_words=4)
    assert eager.feed("Hello there. I think ") == ["Hello there."]  # punctuation first: nothing changes
    assert eager.feed("that we should wait and see ") == []
