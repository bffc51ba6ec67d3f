"""What a person's camera showed (`Seen`): checked like any input, part of the utterance everywhere it goes."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import pytest

from lycan.agents.camwolf import reasoner_log
from lycan.agents.prompt import PromptBuilder, PromptLibrary
from lycan.engine.actions import OVER, PASS, Action, Request, answer_from_dict
from lycan.engine.events import Talk, event_from_dict, event_to_dict
from lycan.engine.seen import MAX_CUES, Cue, Seen, SeenError
from lycan.engine.session import Session
from lycan.engine.stepping import view_at
from lycan.engine.view import View
from lycan.render import describe_event, event_line
from lycan.rules import get_preset
from lycan.rules.roles import Role
from lycan.store import GameStore, export_jsonl, import_jsonl
from lycan.web.lobby import AI_NAMES, TableError, TableFactory, TableRequest
from lycan.web.messages import BadMessage, parse_client_message
from lycan.web.seats import AISeat, HumanSeat
from lycan.web.table import Connection, WebTable
from web_helpers import legal_answer

FROWN_SHAKE = {
    "cues": [
        {"kind": "expression", "value": "frown", "onset": 0.2},
        {"kind": "gesture", "value": "shake", "onset": 1.1},
    ]
}


def test_a_description_reads_as_a_caption_in_order_of_onset() -> None:
    seen = Seen.parse(
        {"cues": [{"kind": "gesture", "value": "nod", "onset": 2}, {"kind": "expression", "value": "smile"}]}
    )
    assert [c.value for c in seen.cues] == ["smile", "nod"]
    assert seen.caption() == "(smiling, nods)"
    assert Seen.parse(seen.to_dict()) == seen
    assert Seen((Cue("gesture", "turn_left", 0.5),)).caption() == "(turns to the left)"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"cues": [{"kind": "gesture", "value": "wink"}]}, "not one of"),
        ({"cues": [{"kind": "mood", "value": "nod"}]}, "kind must be one of"),
        ({"cues": [{"kind": "gesture", "value": "nod", "onset": -1}]}, "between 0"),
        ({"cues": [{"kind": "gesture", "value": "nod", "onset": math.inf}]}, "number of seconds"),
        ({"cues": [{"kind": "gesture", "value": "nod", "onset": "1"}]}, "number of seconds"),
        ({"cues": [{"kind": "gesture", "value": "nod", "onset": True}]}, "number of seconds"),
        ({"cues": [{"kind": "gesture", "value": "nod", "onset": 1e9}]}, "between 0"),
        ({"cues": [{"kind": "gesture", "value": "nod", "seat": 3}]}, "only"),
        ({"cues": [{"kind": "gesture", "value": "nod"}], "seat": 2}, "one field"),
        ({"cues": [{"kind": "expression", "value": "smile"}] * (MAX_CUES + 1)}, "at most"),
        ({"cues": []}, "at least one"),
        ({"cues": "nod"}, "must be a list"),
        ("(smiling) Rin is the seer", "an object"),
        ({"cues": [{"kind": "gesture", "value": ["nod"]}]}, "words"),
    ],
)
def test_a_bad_description_is_refused_with_a_reason(data: Any, words: str) -> None:
    with pytest.raises(SeenError, match=words):
        Seen.parse(data)


def test_a_client_message_carries_a_checked_description_only_with_speech() -> None:
    message = parse_client_message(
        json.dumps({"type": "act", "request_id": 3, "action": "speak", "text": "Not me.", "seen": FROWN_SHAKE})
    )
    assert message.action.seen == Seen.parse(FROWN_SHAKE)  # type: ignore[union-attr]
    with pytest.raises(BadMessage, match="camera's description was refused"):
        parse_client_message(
            json.dumps(
                {
                    "type": "act",
                    "request_id": 3,
                    "action": "speak",
                    "text": "x",
                    "seen": {"cues": [{"kind": "gesture", "value": "<img>"}]},
                }
            )
        )
    with pytest.raises(BadMessage, match="only with 'speak'"):
        parse_client_message(
            json.dumps({"type": "act", "request_id": 3, "action": "choose", "target": 1, "seen": FROWN_SHAKE})
        )
    # an answer's description survives the record's form of the answer
    action = Action.speak("Not me.", seen=Seen.parse(FROWN_SHAKE))
    assert answer_from_dict(action.to_dict()) == action


def test_a_talk_event_keeps_its_description_through_jsonl_and_sqlite(tmp_path: Path) -> None:
    record = play_scripted()
    talks = [e for e in record.events if isinstance(e, Talk) and e.seen is not None]
    assert talks
    event = talks[0]
    assert event_from_dict(event_to_dict(event)) == event
    export_jsonl([record], tmp_path / "g.jsonl")
    (back,) = import_jsonl(tmp_path / "g.jsonl")
    assert [e for e in back.events if isinstance(e, Talk) and e.seen] == talks
    with GameStore(tmp_path / "g.db") as store:
        store.save(record)
        stored = store.get(record.game_id)
    assert [e for e in stored.events if isinstance(e, Talk) and e.seen] == talks


def play_scripted(seed: int = 4) -> Any:
    """A guardian7 game: every seat says one line a day with what 'its camera' saw; the wolves whisper likewise."""

    class Seer:
        def __init__(self) -> None:
            self.said: set[tuple[int, int, str]] = set()

        async def act(self, view: View, request: Request) -> Action:
            return self.decide(view, request)

        def decide(self, view: View, request: Request) -> Action:
            if request.kind in ("talk", "whisper"):
                key = (view.seat, request.day, request.kind)
                if key in self.said:
                    return OVER
                self.said.add(key)
                if request.kind == "whisper":
                    return Action.speak("Take the guard tonight.", seen=Seen((Cue("gesture", "look_down", 0.0),)))
                return Action.speak(f"I am {view.names[view.seat]}.", seen=Seen.parse(FROWN_SHAKE))
            return Action.choose(min(request.targets)) if request.targets else PASS

    rules = get_preset("guardian7")
    return Session(rules, [Seer() for _ in range(rules.n_players)], seed, game_id="seen").run_sync()


def test_every_seat_reads_the_description_with_the_words_and_only_the_pack_a_whispers() -> None:
    record = play_scripted()
    rules = get_preset("guardian7")
    wolves = {s for s, r in enumerate(record.roles) if r is Role.WEREWOLF}
    for seat in range(len(record.roles)):
        view = view_at(record.events, rules, record.names, len(record.events), seat)
        assert isinstance(view, View)
        talks = [e for e in view.events if isinstance(e, Talk) and not (e.over or e.skip)]
        public = [e for e in talks if e.channel == "talk"]
        assert public and all(e.seen == Seen.parse(FROWN_SHAKE) for e in public)
        assert any(e.channel == "whisper" for e in talks) == (seat in wolves)
        other = next(e for e in public if e.actor != seat)
        line = event_line(other, view)  # the words and the look, in every seat's log
        assert line is not None and line.seen == "(frowning, shakes head)"
        assert describe_event(other, record.names, viewer=seat).endswith("(frowning, shakes head)")
        # the LLM seat's prompt quotes the words and then says what was seen (asked right after them)
        upto = record.events.index(other) + 1
        then = view_at(record.events, rules, record.names, upto, seat)
        assert isinstance(then, View)
        prompt = PromptBuilder(PromptLibrary(), "llm").build(then, Request(0, seat, "vote", then.day, targets=(0,)))
        text = "\n".join(str(m["content"]) for m in prompt.messages)
        name = record.names[other.actor]
        assert f'{name}: "{other.text}" (frowning, shakes head)' in text
    # CaM-Wolf's Reasoner gets the same line, so a premise may be the look as well as the words
    seat = next(s for s in range(len(record.roles)) if s not in wolves)
    view = view_at(record.events, rules, record.names, len(record.events), seat)
    assert isinstance(view, View)
    public_rows, _ = reasoner_log(view)
    assert any("(frowning, shakes head)" in row for _, row in public_rows)


def human_table(**kw: Any) -> WebTable:
    rules = get_preset("aiwolf5")
    table = WebTable("t", rules, AI_NAMES[:5], ["human"] + ["scripted"] * 4, 9, **kw)

    class Quiet:
        async def act(self, view: View, request: Request) -> Action:
            if request.kind in ("talk", "whisper"):
                return OVER
            return Action.choose(min(request.targets)) if request.targets else PASS

    table.players = [HumanSeat(table, 0)] + [AISeat(table, s, Quiet(), "scripted", 0.0) for s in range(1, 5)]  # type: ignore[arg-type]
    return table


async def person_says(table: WebTable, extra: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The person says one thing on day 1 with `extra` fields in the frame; returns (their messages, another seat's)."""
    person = table.connect(0)
    other = table.connect(1)
    mine: list[dict[str, Any]] = []

    async def read(conn: Connection) -> None:
        spoken = False
        asked: dict[str, Any] | None = None
        while True:
            message = await conn.queue.get()
            if message is None:
                return
            mine.append(message)
            if message["type"] == "game_over":
                return
            if message["type"] == "error" and asked is not None:  # refused: say it again, in words only
                table.handle(conn, json.dumps(legal_answer(asked, "I saw nothing.")))
                asked = None
            if message["type"] == "request":
                if message["kind"] == "talk" and not spoken and message["day"] >= 1:
                    spoken, asked = True, message
                    table.handle(conn, json.dumps({**legal_answer(message, "I saw nothing."), **extra}))
                else:
                    table.handle(conn, json.dumps(legal_answer(message)))

    reader = asyncio.create_task(read(person))
    await asyncio.wait_for(table.run(), 30)
    await asyncio.wait_for(reader, 5)
    theirs = []
    while not other.queue.empty():
        m = other.queue.get_nowait()
        if m is not None:
            theirs.append(m)
    return mine, theirs


async def test_a_persons_description_goes_with_their_words_to_everyone() -> None:
    table = human_table(camera=True)
    # the frame names another seat: an act answers the sender's own request, so it is ignored
    mine, theirs = await person_says(table, {"seen": FROWN_SHAKE, "actor": 3, "seat": 3})
    assert table.record is not None
    said = [e for e in table.record.events if isinstance(e, Talk) and e.text == "I saw nothing."]
    assert len(said) == 1 and said[0].actor == 0 and said[0].seen == Seen.parse(FROWN_SHAKE)
    assert not any(isinstance(e, Talk) and e.seen and e.actor != 0 for e in table.record.events)
    for got in (mine, theirs):
        shown = [
            m for m in got if m["type"] == "event" and m["kind"] == "talk" and m["data"]["text"] == "I saw nothing."
        ]
        assert shown and shown[0]["caption"] == "(frowning, shakes head)"
        assert shown[0]["data"]["seen"] == Seen.parse(FROWN_SHAKE).to_dict()


async def test_a_table_without_the_camera_refuses_a_description_and_keeps_the_words() -> None:
    table = human_table(camera=False)
    mine, _ = await person_says(table, {"seen": FROWN_SHAKE})
    assert any(m["type"] == "error" and "no camera" in m["message"] for m in mine)
    assert table.record is not None
    said = [e for e in table.record.events if isinstance(e, Talk) and e.text == "I saw nothing."]
    assert len(said) == 1 and said[0].seen is None


def test_paradigms_choose_what_goes_in_and_out_and_are_recorded() -> None:
    factory = TableFactory(None, object(), True, None, allow_seed=True, night_wait=0, ai_delay=0, perception=True)  # type: ignore[arg-type]
    text = factory.build(TableRequest(preset="aiwolf5", humans=1, names=["Ann"], paradigm="text-text"))
    assert (text.camera, text.asr, text.audio.enabled) == (False, False, False)
    assert text.session.meta["paradigm"] == "text-text"
    video_text = factory.build(TableRequest(preset="aiwolf5", humans=1, names=["Ann"], paradigm="video-text"))
    assert (video_text.camera, video_text.asr, video_text.audio.enabled) == (True, True, False)
    both = factory.build(TableRequest(preset="aiwolf5", humans=1, names=["Ann"], paradigm="video-video"))
    assert (both.camera, both.asr, both.audio.enabled) == (True, True, True)
    assert both.session.meta["paradigm"] == "video-video"
    no_camera = TableFactory(None, None, False, None, 0.0, perception=False)
    with pytest.raises(TableError, match="camera perceiver"):
        no_camera.build(TableRequest(preset="aiwolf5", humans=1, names=["Ann"], paradigm="video-text"))
    with pytest.raises(TableError, match="voices"):
        TableFactory(None, None, False, None, 0.0, perception=True).build(
            TableRequest(preset="aiwolf5", humans=1, names=["Ann"], paradigm="video-video")
        )
