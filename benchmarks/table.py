"""The browser table's two figures of merit, measured as a player meets them.

``python -m benchmarks.table click [--pace normal] [--src src]``: the time from a click
on a card in headless Chromium to the hand without it, and to the server's view drawn,
at the given pace (a ``fivehundred serve`` from ``--src`` on a free port; 12 cards).

``python -m benchmarks.table reviews [--hands 5] [--budget 5] [--pace 2]``: the share
of hand reviews that finish within the server's budget at 3, 4, 5 and 6 players
(seeded hands of computer players and one person, reviewed by the server's own
:class:`~fivehundred.server._review.Reviewer`), and the share of the person's own
cards (those not forced) that the reviews valued. The person takes ``--pace`` seconds a
card, while the server values the finished tricks; ``--pace 0`` reviews each hand
only at its end.

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium for ``click``; prints
the figures, and fails nothing.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Clicks a legal card, then notes when it leaves the hand and when a newer view is drawn.
WATCH = """
const card = document.querySelector('#hand .card.legal');
const name = card.dataset.card;
window.gone = null;
window.served = null;
const t0 = performance.now();
const v0 = window.fivehundred.shown.version;
const poll = setInterval(() => { if (window.fivehundred.shown.version !== v0) {
  window.served = performance.now() - t0; clearInterval(poll); } }, 1);
const obs = new MutationObserver(() => {
  if (!document.querySelector(`#hand [data-card="${name}"]`) && window.gone === null) {
    window.gone = performance.now() - t0; obs.disconnect(); }
});
obs.observe(document.getElementById('hand'), { childList: true, subtree: true });
card.click();
if (!document.querySelector(`#hand [data-card="${name}"]`) && window.gone === null) {
  window.gone = performance.now() - t0; obs.disconnect(); }
"""


def click(src: str, pace: str, cards: int = 12) -> tuple[list[float], list[float]]:
    """Milliseconds from a click to the hand without the card, and to a newer view."""
    sys.path.insert(0, str(ROOT / "tests"))
    from browser_support import chromium, open_table, page, settled, wait_for
    from server_helpers import free_port

    port = free_port()
    folder = Path(tempfile.mkdtemp())
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fivehundred",
            "serve",
            "--db",
            str(folder / "t.db"),
            "--port",
            str(port),
            "--seed",
            "bench",
            "--log-level",
            "warning",
        ],
        env=dict(os.environ, PYTHONPATH=src),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(3)
    gone: list[float] = []
    served: list[float] = []

    def mine(d: Any) -> bool:
        return settled(d) and bool(page(d, "f.shown.view.view.to_act === f.shown.seat"))

    try:
        with chromium(folder) as d:
            open_table(d, f"http://127.0.0.1:{port}/", 4, pace="instant")
            d.execute_script("localStorage.setItem('fivehundred.hold', '0')")
            for _ in range(100):
                if len(gone) >= cards:
                    break
                wait_for(d, mine, 60)
                phase, version = page(d, "f.shown.view.view.phase"), page(d, "f.shown.version")
                if phase == "play":
                    d.execute_script("localStorage.setItem('fivehundred.pace', arguments[0])", pace)
                    d.execute_script(WATCH)
                    wait_for(d, lambda d: d.execute_script("return window.served") is not None, 60)
                    gone.append(float(d.execute_script("return window.gone")))
                    served.append(float(d.execute_script("return window.served")))
                    d.execute_script("localStorage.setItem('fivehundred.pace', 'instant')")
                else:
                    d.execute_script(
                        "const f = window.fivehundred; f.act(f.shown.legal_actions.find("
                        "(a) => a === 'pass') || f.shown.legal_actions[0])"
                    )
                wait_for(d, functools.partial(page, expression=f"f.shown.version > {version}"), 60)
    finally:
        server.terminate()
        server.wait(10)
    return gone, served


def _put(finished: Any, table_id: str, review: dict[str, Any]) -> None:
    finished.put(review)


def reviews(
    hands: int, budget: float, pace: float
) -> dict[int, tuple[int, int, list[float], tuple[int, int]]]:
    """By table size: reviews complete, reviews run, each one's seconds, and the
    person's cards valued of those they chose (not forced)."""
    import queue

    import fivehundred as fh
    from fivehundred.server._review import Reviewer, hand_job
    from fivehundred.server.tables import Tables

    out = {}
    for players in (3, 4, 5, 6):
        finished: queue.Queue[dict[str, Any]] = queue.Queue()
        reviewer = Reviewer(functools.partial(_put, finished), budget=budget)
        tables = Tables(":memory:", seed=f"budget-{players}")
        table, _ = tables.create({"players": players}, ["heuristic"] * (players - 1) + ["human"])
        done, times = 0, list[float]()
        valued, chosen = 0, 0
        while len(times) < hands:
            if table.state.result is not None or table.state.to_act is None:
                break
            before = len(table.past)
            action = fh.format_action(fh.legal_actions(table.state)[0])
            tables.act(table, players - 1, action, table.version)
            last = table.past[-1].result if len(table.past) > before else None
            if last is not None and last.contract is not None:
                start = time.monotonic()
                reviewer.start(table.id, hand_job(table.state, last.number, table.people))
                review = finished.get(timeout=budget + 30)
                times.append(time.monotonic() - start)
                done += review["complete"]
                for trick in review["tricks"]:
                    for card in trick["cards"]:
                        if card["seat"] == players - 1 and not card.get("forced"):
                            chosen += 1
                            valued += card["analysed"]
            elif pace and table.state.phase is fh.Phase.PLAY:
                reviewer.follow(table.id, table.state, table.people)
                time.sleep(pace)
        reviewer.close()
        tables.close()
        out[players] = (done, len(times), times, (valued, chosen))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table")
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("click")
    one.add_argument("--pace", default="normal", choices=["instant", "fast", "normal", "slow"])
    one.add_argument("--src", default=str(ROOT / "src"))
    two = sub.add_parser("reviews")
    two.add_argument("--hands", type=int, default=5)
    two.add_argument("--budget", type=float, default=5.0)
    two.add_argument("--pace", type=float, default=2.0, help="a person's seconds a card")
    args = parser.parse_args()
    if args.what == "click":
        gone, served = click(args.src, args.pace)
        print(
            f"pace {args.pace}, {len(gone)} cards: click to the hand without the card "
            f"median {statistics.median(gone):.1f} ms, max {max(gone):.1f} ms; "
            f"to the server's view drawn median {statistics.median(served):.1f} ms, "
            f"max {max(served):.1f} ms"
        )
    else:
        found = reviews(args.hands, args.budget, args.pace)
        for players, (done, ran, times, (valued, chosen)) in found.items():
            print(
                f"{players} players: {done}/{ran} reviews within {args.budget:g} s, "
                f"a card every {args.pace:g} s "
                f"(seconds: {', '.join(f'{t:.1f}' for t in times)}); "
                f"the person's cards valued: {valued}/{chosen}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
