#!/usr/bin/env python3
"""Baseline ClawArena agent for Local Arena: Python standard library only.

Plays liars_dice, las_vegas, mafia, diplomacy and monopoly through the ClawArena agent API: schema discovery, heartbeat,
long-poll, actions with idempotency keys, and the server fallback when an action is rejected.

Environment:
  CLAWARENA_BASE_URL (or CLAWARENA_BASE)     e.g. http://127.0.0.1:<port>/api/v1
  CLAWARENA_CONNECTION_TOKEN (or CLAWARENA_TOKEN_PATH, a file holding the token)
  SSL_CERT_FILE                               trust anchor for the loopback https listener
Options:
  --matches N   stop after N finished matches (0 = never; default 1)
  --wait S      long-poll wait in seconds (default 30)
"""

import argparse
import hashlib
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

USER_AGENT = "local-arena-baseline-python/1"


def canonical(value):
    """Sorted keys, no whitespace, raw non-ASCII; integral floats written as integers (spec 7.2)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: [ord(c) for c in kv[0]])
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v) for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class Api:
    def __init__(self, base, token, log):
        self.base = base.rstrip("/")
        self.token = token
        self.log = log

    def call(self, method, path, body=None, query=None, auth=True, timeout=70):
        url = self.base + path
        if query:
            url += "?" + "&".join(f"{k}={urllib.request.quote(str(v))}" for k, v in query.items())
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("User-Agent", USER_AGENT)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if auth:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return res.status, json.loads(res.read() or b"{}")
        except urllib.error.HTTPError as err:
            try:
                payload = json.loads(err.read() or b"{}")
            except ValueError:
                payload = {}
            return err.code, payload if isinstance(payload, dict) else {}


# --- decisions -----------------------------------------------------------------------------------------------

FACE_ORDER = [2, 3, 4, 5, 6, 1]


def liars_dice(envelope, rng):
    state = envelope["state"]
    actions = {a["action"]: a for a in envelope["legal_actions"]}
    mine = state.get("your_dice", [])
    unseen = state.get("opponent_dice_count", 5)
    total = state.get("total_dice_count", len(mine) + unseen)

    def expected(face):
        own = sum(1 for d in mine if d == face or (face != 1 and d == 1))
        return own + unseen * (1 / 6 if face == 1 else 1 / 3)

    last = state.get("last_bid")
    if last and "challenge" in actions and last["quantity"] > expected(last["face"]) + 0.75:
        return "challenge", {}
    if "bid" not in actions:
        return "challenge", {}
    best = max(FACE_ORDER[:5], key=lambda f: (expected(f), FACE_ORDER.index(f)))
    for quantity in range(1, total + 1):
        for face in sorted(FACE_ORDER, key=lambda f: (f != best, -expected(f))):
            if is_higher(quantity, face, last):
                if last and quantity > expected(face) + 0.75 and "challenge" in actions:
                    return "challenge", {}
                return "bid", {"quantity": quantity, "face": face}
    return "challenge", {}


def is_higher(quantity, face, last):
    if not last:
        return True
    rank = FACE_ORDER.index
    return quantity > last["quantity"] or (quantity == last["quantity"] and rank(face) > rank(last["face"]))


def las_vegas(envelope, rng):
    hint = envelope["legal_actions"][0]["hint"]
    best, best_score = None, None
    for option in hint["faces_available"]:
        mine = option["your_dice_already_there"] + option["dice_you_would_place"]
        rivals = list(option["casino_dice_by_player"].values())
        bills = option["casino_bills"]
        above = sum(1 for r in rivals if r > mine)
        tied = mine in rivals
        value = 0 if tied or above >= len(bills) else bills[above]
        score = value / (1 + 0.35 * option["dice_you_would_place"])
        if best_score is None or score > best_score:
            best, best_score = option["face"], score
    return "place", {"face": best}


CHAT_LINES = {
    "mafia": "I want to hear from the quiet players before I commit to a vote.",
    "doctor": "Let us follow the voting record; inconsistent votes are the best tell we have.",
    "detective": "I have been watching who pushes which names. I will share what I know before the vote.",
    "citizen": "No hard read yet. I will vote with the strongest case made here.",
}


def mafia(envelope, rng, memory):
    state = envelope["state"]
    action = envelope["legal_actions"][0]
    hint = action["hint"]
    role = state.get("my_role", "citizen")
    fellows = {p["name"] for p in state.get("fellow_mafia_players", [])}
    if action["action"] == "chat":
        if state.get("phase") == "mafia_night_discuss":
            return "chat", {"message": "Tonight let us both pick the first town player in the target list."}
        known = [i for i in state.get("investigation_history", []) if i.get("is_mafia")]
        if known:
            return "chat", {"message": f"I investigated {known[-1]['name']}: mafia. Vote them out."}
        return "chat", {"message": CHAT_LINES.get(role, CHAT_LINES["citizen"])}
    if action["action"] == "night_action":
        targets = hint["targets"]
        if role == "mafia":
            pool = [t for t in targets if t["name"] not in fellows] or targets
            return "night_action", {"target_id": pool[0]["agent_id"]}
        if role == "detective":
            seen = {i["name"] for i in state.get("investigation_history", [])}
            pool = [t for t in targets if t["name"] not in seen] or targets
            return "night_action", {"target_id": rng.choice(pool)["agent_id"]}
        return "night_action", {"target_id": rng.choice(targets)["agent_id"]}
    if action["action"] == "vote":
        candidates = hint["candidates"]
        known = {i["name"] for i in state.get("investigation_history", []) if i.get("is_mafia")}
        for c in candidates:
            if c["name"] in known:
                return "vote", {"target_id": c["agent_id"]}
        pool = [c for c in candidates if c["name"] not in fellows] or candidates
        # Town players converge on the lowest listed id, which keeps votes from splitting forever.
        return "vote", {"target_id": pool[0]["agent_id"]}
    return action["action"], dict(hint["server_fallback"]["params"])


PRESS_LINES = [
    "Shall we keep our shared border quiet this season?",
    "I will not move against you this year if you do the same.",
    "Tell me where you are heading and I will stay out of your way.",
]


def diplomacy(envelope, rng):
    action = envelope["legal_actions"][0]
    hint = action["hint"]
    if action["action"] == "send_press":
        if hint.get("max_messages", 0) < 1 or hint.get("round") != 1:
            return "send_press", {"messages": []}
        to = rng.choice(hint["recipient_powers"])
        return "send_press", {"messages": [{"to_power": to, "content": rng.choice(PRESS_LINES)}]}
    # Orders, retreats and adjustments: the advisor's recommendation most of the time, another candidate otherwise.
    candidates = (envelope.get("state", {}).get("heuristic_advice") or {}).get("candidates") or []
    if not candidates:
        return action["action"], dict(hint["server_fallback"]["params"])
    pick = candidates[0] if rng.random() < 0.75 else rng.choice(candidates)
    return action["action"], {"candidate_id": pick["candidate_id"]}


def monopoly(envelope, rng):
    state = envelope.get("state", {})
    advice = state.get("heuristic_advice")
    trade = next((a for a in envelope["legal_actions"] if a["action"] == "propose_trade"), None)
    ideas = (trade or {}).get("hint", {}).get("candidate_trade_ideas") or []
    # Now and then, before rolling, offer a little over face value for a deed that advances one of our sets.
    if ideas and not state.get("has_rolled_this_turn") and rng.random() < 0.2:
        idea = rng.choice(ideas)
        want = idea["they_hold_space_ids"][0]
        price = next((s.get("price") or 0 for s in state.get("board", []) if s["index"] == want), 0)
        offer = min(round(price * 1.2), state.get("your_cash", 0) - 200)
        if offer > 0:
            return "propose_trade", {"to_agent_id": idea["to_agent_id"], "offer_cash": offer, "request_space_ids": [want]}
    if not advice:
        first = envelope["legal_actions"][0]
        return first["action"], dict(first["hint"]["server_fallback"]["params"])
    params = dict(advice["recommended_action"])
    return params.pop("action"), params


def decide(envelope, rng, memory):
    game = envelope.get("game_type")
    if game == "monopoly":
        return monopoly(envelope, rng)
    if game == "diplomacy":
        return diplomacy(envelope, rng)
    if game == "liars_dice":
        return liars_dice(envelope, rng)
    if game == "las_vegas":
        return las_vegas(envelope, rng)
    if game == "mafia":
        return mafia(envelope, rng, memory)
    first = envelope["legal_actions"][0]
    return first["action"], dict(first["hint"]["server_fallback"]["params"])


# --- the loop ------------------------------------------------------------------------------------------------


def read_token():
    token = os.environ.get("CLAWARENA_CONNECTION_TOKEN", "").strip()
    path = os.environ.get("CLAWARENA_TOKEN_PATH")
    if not token and path:
        with open(path, encoding="utf-8") as fh:
            token = fh.read().strip()
    return token


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--wait", type=int, default=30)
    args = parser.parse_args()
    base = os.environ.get("CLAWARENA_BASE_URL") or os.environ.get("CLAWARENA_BASE")
    token = read_token()
    if not base or not token:
        print("set CLAWARENA_BASE_URL and CLAWARENA_CONNECTION_TOKEN", file=sys.stderr)
        return 2

    def log(text):
        print(text, file=sys.stderr, flush=True)

    api = Api(base, token, log)
    rng = random.Random(token[-16:])
    status, schema = api.call("GET", "/agents/schema/", auth=False)
    if status != 200 or "heartbeat" not in schema:
        log(f"schema discovery failed: {status}")
        return 1
    grace = int(schema["heartbeat"].get("grace_seconds", 90))
    heartbeat_every = max(15, grace - 30)
    status, _ = api.call("POST", "/agents/watcher/", body=dict(schema["heartbeat"]["body_template"], client="local-arena-baseline"))
    if status == 401:
        log("the token was refused")
        return 1
    last_heartbeat = time.monotonic()

    context_id = uuid.uuid4().hex
    first = True
    acted_windows = set()
    finished = set()
    memory = {}
    failures = 0
    while True:
        query = {"wait": args.wait, "snapshot": "full", "consume_preferences": 1}
        if first:
            query.update(consume_history=1, resync=1, context_id=context_id)
        try:
            status, env = api.call("GET", "/agents/game/", query=query)
        except (urllib.error.URLError, OSError) as err:
            failures += 1
            if failures > 20:
                log(f"giving up: {err}")
                return 1
            time.sleep(min(10, failures))
            continue
        failures = 0
        if status == 401:
            log("the token was refused")
            return 1
        if status != 200:
            time.sleep(2)
            continue
        first = False
        if env.get("status") == "finished" and env.get("match_id") not in finished:
            finished.add(env.get("match_id"))
            result = env.get("result") or {}
            log(f"match {env.get('match_id')} finished: winners {result.get('winner_ids')}")
            if args.matches and len(finished) >= args.matches:
                return 0
        if env.get("status") != "playing":
            if time.monotonic() - last_heartbeat > heartbeat_every:
                api.call("POST", "/agents/watcher/", body={"status": "idle", "feed_status": "connected"})
                last_heartbeat = time.monotonic()
            continue
        window = env.get("action_window_id")
        if not env.get("is_your_turn") or env.get("action_pending") or window in acted_windows:
            continue
        try:
            action, params = decide(env, rng, memory)
        except Exception as err:  # a strategy bug must not stall the seat
            log(f"strategy error: {err!r}; using the server fallback")
            first_action = env["legal_actions"][0]
            action, params = first_action["action"], dict(first_action["hint"]["server_fallback"]["params"])
        move = {"action": action, "params": params}
        key = f"{env.get('seq')}-{hashlib.sha256(canonical(move).encode('utf-8')).hexdigest()[:16]}"
        status, reply = api.call("POST", "/agents/action/", body=dict(move, idempotency_key=key))
        if status == 400:
            legal = {a["action"]: a for a in env["legal_actions"]}
            chosen = legal.get(action) or env["legal_actions"][0]
            fallback = {"action": chosen["action"], "params": dict(chosen["hint"]["server_fallback"]["params"])}
            log(f"{action} rejected ({reply.get('code')}); sending the server fallback")
            api.call("POST", "/agents/action/", body=dict(fallback, idempotency_key=key + "-fallback"))
        elif status == 409 and reply.get("code") not in ("action_already_queued",):
            log(f"{action} not accepted: {reply.get('code')}")
        acted_windows.add(window)


if __name__ == "__main__":
    sys.exit(main())
