"""Warm-agent helper for SpecArena tournaments (Python 3.10+, standard library only).

An agent whose manifest says ``lifecycle: persistent`` is started once per concurrent slot with ``ARENA_URL`` and
``ARENA_AGENT_KEY``. It asks for a seat, plays it with the seat key exactly as a per-game agent plays
``ARENA_INVITE`` with ``ARENA_SESSION_KEY``, and asks again::

    from arena_warm import run_warm

    def play_seat(seat):
        # join seat["invite"] with "Authorization: Bearer " + seat["seat_key"] and play until "Game ended."
        ...

    run_warm(play_seat)

``play_seat`` returns when the game has ended for this seat; raising ends the process with exit 1 (that game is lost
as a crash, and the harness starts a fresh process for the next one).
"""

import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

NEXT_SEAT_WAIT_SECONDS = 30


def next_seat(url=None, agent_key=None, wait=NEXT_SEAT_WAIT_SECONDS):
    """One long-poll: the seat dict, ``{"finished": True, ...}`` when the tournament is over for this process (also
    when the key is refused: the harness replaced it), or None when no seat came within the wait."""
    url = (url or os.environ.get("ARENA_URL", "")).rstrip("/")
    agent_key = agent_key or os.environ.get("ARENA_AGENT_KEY", "")
    if not url or not agent_key:
        raise RuntimeError("ARENA_URL and ARENA_AGENT_KEY must be set (manifest lifecycle: persistent)")
    request = urllib.request.Request(
        f"{url}/api/arena/next-seat?wait={wait}",
        headers={"Authorization": f"Bearer {agent_key}", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=wait + 10) as response:
            if response.status == 204:
                return None
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        if error.code == 401:
            return {"finished": True, "reason": "agent key refused"}
        raise


def _loop(play_seat):
    failures = 0
    while True:
        try:
            seat = next_seat()
            failures = 0
        except (urllib.error.URLError, OSError):
            # A few connection failures in a row mean the engine is gone: stop rather than linger.
            failures += 1
            if failures >= 5:
                raise
            time.sleep(0.2 * failures)
            continue
        if seat is None:
            continue
        if seat.get("finished"):
            return
        # A seat still being played past its deadline means the process is stuck.
        budget = max(1.0, seat["deadline"] / 1000 - time.time() + 5)
        stuck = threading.Timer(budget, lambda: os._exit(2))
        stuck.daemon = True
        stuck.start()
        try:
            play_seat(seat)
        finally:
            stuck.cancel()


def run_warm(play_seat):
    """Plays seat after seat until finished (ARENA_MAX_CONCURRENT_GAMES threads side by side), then exits 0."""
    loops = max(1, int(os.environ.get("ARENA_MAX_CONCURRENT_GAMES", "1") or 1))

    def worker():
        try:
            _loop(play_seat)
        except BaseException as error:  # noqa: BLE001 - any failure ends the whole process, as in a per-game agent
            sys.stderr.write(f"warm agent: {error}\n")
            sys.stderr.flush()
            os._exit(1)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(loops)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sys.exit(0)
