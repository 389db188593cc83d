"""Issue 31's "done when", as a scripted run (not collected as a test: it plays a whole game,
a few minutes): `python -m tests.tables.scenario_clocks OUTDIR [STORE]`.

Three people, each their own process, play Notre Dame at a table with a 10 s turn limit and
no vacation; alice's turns go to a local JSON webhook (and she asked for a reminder after
0.001 h, 3.6 s), bob's by mail to a local SMTP server (aiosmtpd), carol's to the webhook.
alice once thinks for 5 s (a reminder, no timeout), bob once leaves his turn for 12 s (the
computer plays it), carol goes away after her fourth turn and stops playing (the computer
plays for her to the end). Every notification received and every autopilot move is written
to OUTDIR (notifications.json, autopilot.json, summary.md).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.tables.table_procs import cli

WEBHOOK = "json://127.0.0.1:{port}/{user}"


def person(store: str, user: str, tid: str, seed: str) -> None:
    """One player: waits for their turn, plays a random legal move; the quirks above."""
    rng = random.Random(int(seed))
    base = ("--user", user, "--store", store, "table")
    turns = 0
    last_moves = -1
    while True:
        _, text = cli(*base, "show", tid, "--json")
        doc = json.loads(text)
        if doc["finished"]:
            return
        if not doc["legal"]:
            cli(*base, "wait", tid, "--timeout", "2")
            continue
        new_turn = doc["moves"] != last_moves + 1
        if new_turn:
            turns += 1
            if user == "alice" and turns == 3:
                time.sleep(5)  # a long think: reminded, not timed out
            if user == "bob" and turns == 4:
                time.sleep(12)  # away from the keyboard: the computer plays this turn
                continue
            if user == "carol" and turns == 5:
                cli(*base, "away")  # no vacation at this table: the computer plays for her
                return
        move = rng.choice(doc["legal"])
        cli(*base, "play", tid, move, "--expect", str(doc["moves"]))
        last_moves = doc["moves"]


def main(out_dir: str, store: str | None = None) -> None:
    from tests.tables.test_notify import Hook, free_port

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    store = store or str(out / "tables.sqlite")
    if not store.startswith("postgres") and Path(store).exists():
        Path(store).unlink()
    hook = Hook()
    from aiosmtpd.controller import Controller

    mail: list[dict[str, Any]] = []

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            text = envelope.content.decode("utf-8", "replace")
            subject = next((ln[9:] for ln in text.splitlines() if ln.startswith("Subject: ")), "")
            mail.append({"at": time.time(), "to": list(envelope.rcpt_tos), "subject": subject})
            return "250 OK"

    port = free_port()
    smtp = Controller(Handler(), hostname="127.0.0.1", port=port)
    smtp.start()
    posts_at: list[float] = []
    began = time.time()
    try:
        for user in ("alice", "carol"):
            cli("--user", user, "--store", store, "table", "notify", "add",
                WEBHOOK.format(port=hook.port, user=user))  # fmt: skip
        cli("--user", "bob", "--store", store, "table", "notify", "add",
            f"mailto://127.0.0.1:{port}?from=tables@example.com&to=bob@example.com")  # fmt: skip
        cli("--user", "alice", "--store", store, "table", "notify", "remind", "0.001")
        rc, text = cli(
            "--user", "alice", "--store", store, "table", "new", "notre-dame",
            "--seats", "alice,bob,carol", "--turn-limit", "10s",
            "--vacation", "0",
        )  # fmt: skip
        assert rc == 0, text
        tid = text.split()[-1]
        for user in ("bob", "carol"):  # their seats were offered: they accept
            assert cli("--user", user, "--store", store, "table", "join", tid)[0] == 0
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        me = [sys.executable, "-m", "tests.tables.scenario_clocks", "--person", store]
        procs = [
            subprocess.Popen([*me, user, tid, str(k)], env=env)
            for k, user in enumerate(("alice", "bob", "carol"))
        ]
        seen = 0
        for p in procs:
            while p.poll() is None:
                time.sleep(0.2)
                if len(hook.posts) > seen:
                    posts_at += [time.time()] * (len(hook.posts) - seen)
                    seen = len(hook.posts)
            assert p.returncode == 0, p.returncode
        # the last computer turns and messages: any reader settles and sends them
        for _ in range(100):
            _, text = cli("--user", "alice", "--store", store, "table", "show", tid, "--json")
            if json.loads(text)["finished"]:
                break
            time.sleep(0.5)
        time.sleep(1)
        posts_at += [time.time()] * (len(hook.posts) - len(posts_at))
    finally:
        smtp.stop()
        hook.close()
    from boardgames_tui.cli.table_cmd import table_log
    from boardgames_tui.engine.tables import open_store

    s = open_store(store)
    info, match = s.load(tid)
    rows = s.export_table(tid)[1]
    names = [x.user for x in info.seats]
    autopilot: list[dict[str, Any]] = [
        {"move": n, "seat": seat + 1, "for": names[seat], "move_id": mid, "at": at,
         "line": match.move_line(n, None)}
        for n, mid, seat, who, at in rows
        if who == "autopilot"
    ]  # fmt: skip
    notes = [
        {"kind": "webhook", "to": path.strip("/"), "title": title, "at": round(at - began, 1)}
        for (path, title, _), at in zip(hook.posts, posts_at, strict=True)
    ] + [
        {"kind": "mail", "to": m["to"][0], "title": m["subject"], "at": round(m["at"] - began, 1)}
        for m in mail
    ]
    notes.sort(key=lambda x: x["at"])
    events = [{"after_move": e.n, "text": e.text} for e in s.events(tid)]
    result = match.game.result(match.state)
    (out / "notifications.json").write_text(json.dumps(notes, indent=1))
    (out / "autopilot.json").write_text(json.dumps(autopilot, indent=1))
    (out / "table-log.txt").write_text("\n".join(table_log(s, info, match, None)) + "\n")
    by: dict[str, int] = {}
    for a in autopilot:
        by[a["for"]] = by.get(a["for"], 0) + 1
    kinds: dict[str, int] = {}
    for n in notes:
        key = f"{n['to']}: {'reminder' if n['title'].startswith('Reminder') else 'turn'}"
        kinds[key] = kinds.get(key, 0) + 1
    lines = [
        f"# Scenario: three people, a 10 s turn limit, notifications (table {tid})",
        "",
        f"- finished: {info.finished} after {info.moves} moves in {time.time() - began:.0f} s: "
        f"{result.summary}",
        f"- autopilot moves: {len(autopilot)} ({', '.join(f'{k} {v}' for k, v in by.items())})",
        f"- notifications received: {len(notes)} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})",
        f"- seats at the end: {[(x.user, x.pilot, x.strikes) for x in info.seats]}",
        "",
        "## The table's own log lines",
        *[f"- after move {e['after_move']}: {e['text']}" for e in events],
        "",
        "## Notifications (seconds from the start)",
        *[f"- {n['at']:>6} s  {n['kind']:<7} {n['to']:<18} {n['title']}" for n in notes],
        "",
        "## Autopilot moves",
        *[f"- move {a['move']} for {a['for']} (seat {a['seat']}): {a['line']}" for a in autopilot],
    ]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    s.close()
    print("\n".join(lines[:8]))


if __name__ == "__main__":
    if sys.argv[1] == "--person":
        person(*sys.argv[2:])
    else:
        main(*sys.argv[1:])
