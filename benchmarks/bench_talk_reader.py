"""Statement-level precision and recall of the talk reader on labelled sets, with bootstrap intervals.

Each labelled file (`tests/data/talk/*.jsonl`) holds utterances written for the project in many
styles, with the statements each makes. The reader (`lycan.beliefs.reader.TalkReader`) reads every
line; a statement counts as found when kind, seat, role and species all match (`canonical`); a
result ("Night 2: Ken is human.") implies the claim of its role, in the labels and in the reading
alike (`scored`: labelled sets differ on whether to write it, the belief engine reads it so). Scores
are given per group of kinds, as the targets name them: role claims and results (claim, divined,
identified), vote intentions and accusations (will_vote, accuses), and the rest (defends, liar,
guarded), with 95% intervals from resampling lines (2,000 resamples). Beside the reader (its rules
and the learned readers behind them, `lycan.beliefs.opinions`), its rules alone, the exact
template parser (`SpeechParser`) on the same lines, and the cost of reading a line. "reader in table"
reads each line knowing the role its speaker claimed in the table's earlier lines, as the reader
itself read them (`read_in_table`: a game's belief engine reads talk so); "reader" reads
each line alone.

With `--model local` (or any `lycan.models.load_model` spec), the rules and a chat model behind
them (`ClaimExtractor`, the model asked about lines the rules did not account for whole, its
statements kept only where the line bears them out) are scored too, with the model calls counted.

    python benchmarks/bench_talk_reader.py tests/data/talk/heldout.jsonl
    python benchmarks/bench_talk_reader.py tests/data/talk/heldout.jsonl --model local
    python benchmarks/bench_talk_reader.py tests/data/talk/heldout*.jsonl --pool --talk-models ngram,encoder

`--talk-models ngram,encoder` scores the reader in table with each learned reader behind the
rules (`LYCAN_TALK_MODEL`): the hashed words and word pairs, or the tuned sentence encoder.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from lycan.beliefs.claims import SpeechParser, Statement
from lycan.beliefs.extract import Labelled, load_labelled, read_in_table, scored
from lycan.beliefs.reader import TalkReader
from lycan.beliefs.talk_model import talk_model_set

GROUPS: dict[str, tuple[str, ...]] = {
    "claims and results": ("claim", "divined", "identified"),
    "votes and accusations": ("will_vote", "accuses"),
    "defences, liar calls, protections": ("defends", "liar", "guarded"),
    "all": ("claim", "divined", "identified", "will_vote", "accuses", "defends", "liar", "guarded"),
}
Read = Callable[[Labelled], Sequence[Statement]]


def per_line(rows: list[Labelled], read: Read, kinds: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """(true positives, false positives, misses) of each line, for statements of `kinds`."""
    out = []
    for row in rows:
        got = Counter(s for s in scored(read(row)) if s.kind in kinds)
        gold = Counter(s for s in scored(row.gold) if s.kind in kinds)
        tp = sum(min(got[s], gold[s]) for s in got)
        out.append((tp, sum(got.values()) - tp, sum(gold.values()) - tp))
    return out


def rates(lines: Sequence[tuple[int, int, int]]) -> tuple[float, float]:
    tp = sum(x[0] for x in lines)
    fp = sum(x[1] for x in lines)
    fn = sum(x[2] for x in lines)
    return tp / max(tp + fp, 1), tp / max(tp + fn, 1)


def interval(lines: list[tuple[int, int, int]], resamples: int, rng: random.Random) -> tuple[tuple[float, float], ...]:
    """95% bootstrap intervals of precision and recall, resampling lines."""
    ps, rs = [], []
    for _ in range(resamples):
        sample = [lines[rng.randrange(len(lines))] for _ in lines]
        p, r = rates(sample)
        ps.append(p)
        rs.append(r)
    ps.sort()
    rs.sort()
    lo, hi = int(0.025 * (resamples - 1)), int(0.975 * (resamples - 1))
    return (ps[lo], ps[hi]), (rs[lo], rs[hi])


def with_model(model: object, rows: list[Labelled]) -> tuple[dict[int, Sequence[Statement]], int]:
    """What the rules with `model` behind them read in each row, and how many model calls it took."""
    import asyncio

    from lycan.beliefs.extract import ClaimExtractor

    extractors: dict[tuple[str, ...], ClaimExtractor] = {}
    out: dict[int, Sequence[Statement]] = {}

    async def go() -> None:
        for row in rows:
            ex = extractors.setdefault(row.names, ClaimExtractor(model, row.names))  # type: ignore[arg-type]
            out[id(row)] = await ex.extract(row.text, row.speaker, scope="bench")

    asyncio.run(go())
    return out, sum(ex.model_calls for ex in extractors.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--model", default=None, help="also score the rules with this chat model behind them")
    parser.add_argument(
        "--talk-models",
        default="ngram",
        help="the learned readers behind the rules to score in table, comma-separated (ngram, encoder)",
    )
    parser.add_argument("--pool", action="store_true", help="score the files' lines together, as one set")
    args = parser.parse_args()
    talk_models = [m.strip() for m in args.talk_models.split(",") if m.strip()]
    model = None
    if args.model is not None:
        from lycan.models import load_model

        model = load_model(args.model, n_ctx=2048)
    sets = [(str(path), load_labelled(path)) for path in args.files]
    if args.pool:
        sets = [(" + ".join(name for name, _ in sets), [row for _, rows in sets for row in rows])]
    for path, rows in sets:
        readers: dict[str, Read] = {}
        for talk_model in talk_models:
            with talk_model_set(talk_model):
                tabled = {id(row): got for row, got in zip(rows, read_in_table(rows), strict=True)}
            name = "reader in table" if talk_models == ["ngram"] else f"in table, {talk_model}"
            readers[name] = lambda row, got=tabled: got[id(row)]
        readers |= {
            "reader": lambda row: TalkReader(row.names).parse(row.text, row.speaker),
            "rules alone": lambda row: TalkReader(row.names, learned=False).parse(row.text, row.speaker),
            "template parser": lambda row: SpeechParser(row.names).parse(row.text, row.speaker),
        }
        if model is not None:
            extracted, calls = with_model(model, rows)
            readers["rules + model"] = lambda row, got=extracted: got[id(row)]
            print(f"  ({calls} model calls)")
        statements = sum(len(row.gold) for row in rows)
        print(f"\n{path}: {len(rows)} lines, {statements} statements")
        for name, read in readers.items():
            for group, kinds in GROUPS.items():
                lines = per_line(rows, read, kinds)
                p, r = rates(lines)
                (plo, phi), (rlo, rhi) = interval(lines, args.resamples, random.Random(0))
                n = sum(x[0] + x[2] for x in lines)
                p_text = f"P {p:.3f} [{plo:.3f}, {phi:.3f}]"
                r_text = f"R {r:.3f} [{rlo:.3f}, {rhi:.3f}]"
                print(f"  {name:<16} {group:<36} {p_text}  {r_text}  (N = {n})")
        costs = []
        for _ in range(5):
            started = time.perf_counter()
            for row in rows:
                TalkReader(row.names).read(row.text, row.speaker)
            costs.append((time.perf_counter() - started) / len(rows) * 1000)
        print(f"  cost: {statistics.median(costs):.2f} ms a line read cold, table set-up included (median of 5)")


if __name__ == "__main__":
    main()
