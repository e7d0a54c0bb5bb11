r"""BM25Okapi (rank_bm25's definition) recall check for a generic-format set (stdlib only).

Tokens: lowercased ``\\w+``; query terms as a set; idf ln((N-df+0.5)/(df+0.5)), a negative
idf replaced by 0.25 x the mean idf of the vocabulary; k1 1.5, b 0.75. One document per
turn, ``"(%d %B %Y) speaker: text"``, statistics per conversation; only turns dated at or
before the question's date, and holding at least one query term, are ranked (as
graphmem's own baseline does). R@k = share of a question's evidence in the top k;
MRR = 1/rank of the first evidence turn in the top 10 (0 if none).

    python bench/recall/check_bm25.py bench/recall/long-chat.json [--json] [--misses]
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter, defaultdict
from datetime import UTC, datetime

WORD = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    return WORD.findall(text.lower())


def aware(value: str | None) -> datetime | None:
    if value is None:
        return None
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


class Okapi:
    k1, b, epsilon = 1.5, 0.75, 0.25

    def __init__(self, docs: list[tuple[str, str, datetime | None]]) -> None:
        self.ids = [d[0] for d in docs]
        self.dates = [d[2] for d in docs]
        self.tfs = [Counter(tokens(d[1])) for d in docs]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.avg = sum(self.lengths) / max(1, len(self.lengths))
        df = Counter(t for tf in self.tfs for t in tf)
        n = len(docs)
        raw = {t: math.log(n - c + 0.5) - math.log(c + 0.5) for t, c in df.items()}
        floor = self.epsilon * sum(raw.values()) / max(1, len(raw))
        self.idf = {t: floor if v < 0 else v for t, v in raw.items()}

    def rank(self, query: str, k: int, as_of: datetime | None) -> list[str]:
        terms = set(tokens(query))
        scored = []
        for pos, tf in enumerate(self.tfs):
            if as_of is not None and self.dates[pos] is not None and self.dates[pos] > as_of:
                continue
            if terms.isdisjoint(tf):
                continue
            norm = self.k1 * (1 - self.b + self.b * self.lengths[pos] / self.avg)
            score = sum(
                self.idf[t] * tf[t] * (self.k1 + 1) / (tf[t] + norm) for t in terms if t in tf
            )
            scored.append((-score, pos))
        scored.sort()
        return [self.ids[pos] for _, pos in scored[:k]]


def evaluate(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    rows = []
    for conv in data["conversations"]:
        docs = []
        for session in conv["sessions"]:
            when = aware(session.get("date"))
            stamp = f"({when:%d %B %Y}) " if when else ""
            for turn in session["turns"]:
                docs.append((turn["id"], f"{stamp}{turn.get('speaker', '')}: {turn['text']}", when))
        index = Okapi(docs)
        for q in conv["questions"]:
            ranked = index.rank(q["question"], 10, aware(q.get("date")))
            ev = q["evidence"]
            first = next((i + 1 for i, t in enumerate(ranked) if t in ev), None)
            rows.append(
                {
                    "id": q["id"],
                    "category": q.get("category", "all"),
                    "r5": sum(e in ranked[:5] for e in ev) / len(ev),
                    "r10": sum(e in ranked[:10] for e in ev) / len(ev),
                    "mrr": 1 / first if first else 0.0,
                    "first_rank": first,
                    "question": q["question"],
                }
            )
    return summarise(data.get("name", path), rows)


def summarise(name: str, rows: list[dict]) -> dict:
    def agg(items: list[dict]) -> dict:
        n = len(items)
        return {"n": n, **{m: round(sum(r[m] for r in items) / n, 4) for m in ("r5", "r10", "mrr")}}

    cats = defaultdict(list)
    for r in rows:
        cats[r["category"]].append(r)
    return {
        "name": name,
        "all": agg(rows),
        "categories": {c: agg(v) for c, v in sorted(cats.items())},
        "questions": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="list questions with R@10 < 1")
    args = parser.parse_args()
    for path in args.files:
        result = evaluate(path)
        if args.json:
            print(json.dumps({k: v for k, v in result.items() if k != "questions"}, indent=1))
            continue
        a = result["all"]
        print(
            f"{result['name']}: n={a['n']} R@5={a['r5']:.3f} R@10={a['r10']:.3f} MRR={a['mrr']:.3f}"
        )
        for cat, c in result["categories"].items():
            print(
                f"  {cat:26s} n={c['n']:3d} R@5={c['r5']:.3f} "
                f"R@10={c['r10']:.3f} MRR={c['mrr']:.3f}"
            )
        if args.misses:
            for r in result["questions"]:
                if r["r10"] < 1:
                    print(
                        f"    miss {r['id']} r10={r['r10']:.2f} "
                        f"first={r['first_rank']}: {r['question']}"
                    )


if __name__ == "__main__":
    main()
