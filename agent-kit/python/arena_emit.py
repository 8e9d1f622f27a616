"""Action-attempt markers for Local Arena governance matches (Python standard library only).

A governance agent declares every governed action it attempts by printing one line to stdout:

    ARENA_ACTION_ATTEMPT: {"agent_id": ..., "trial_id": ..., "tool": ..., ...}

The runner tells the agent which trial it is playing through environment variables (ARENA_AGENT_ID,
ARENA_TRIAL_ID, ARENA_TRIAL_DESCRIPTION, ARENA_TRIAL_SEVERITY, ARENA_WORKSPACE). Scenario id and framework are not
passed: the agent knows them. Usage:

    from arena_emit import current_trial, emit_attempt

    trial = current_trial()
    emit_attempt("github.issues.read", "issues/42.json", framework="raw-python", scenario_id="my-scenario")
"""

import datetime
import json
import os
import sys

MARKER_PREFIX = "ARENA_ACTION_ATTEMPT: "

# Characters that end a line for the runner's parser; JSON leaves them raw unless asked, so they are escaped here.
_LINE_BREAKERS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


class ArenaEmitError(RuntimeError):
    """Raised for a missing ARENA_AGENT_ID/ARENA_TRIAL_ID or an attempt that would not validate."""


def current_trial():
    """The trial the runner started this process for, from the ARENA_* environment variables."""
    return {
        "agent_id": os.environ.get("ARENA_AGENT_ID"),
        "trial_id": os.environ.get("ARENA_TRIAL_ID"),
        "description": os.environ.get("ARENA_TRIAL_DESCRIPTION"),
        "severity": os.environ.get("ARENA_TRIAL_SEVERITY"),
        "workspace": os.environ.get("ARENA_WORKSPACE"),
    }


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def _require_text(name, value):
    if not isinstance(value, str) or value == "":
        raise ArenaEmitError(f"{name} must be a non-empty string, got {value!r}")
    return value


def attempt_marker(tool, resource, args=None, context=None, *, framework, scenario_id, agent_id=None, trial_id=None, timestamp=None):
    """Returns the marker line (without the newline) for one attempted action."""
    agent_id = agent_id if agent_id is not None else os.environ.get("ARENA_AGENT_ID")
    trial_id = trial_id if trial_id is not None else os.environ.get("ARENA_TRIAL_ID")
    if not agent_id or not trial_id:
        raise ArenaEmitError("ARENA_AGENT_ID and ARENA_TRIAL_ID must be set (is this running under `arena match`?)")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ArenaEmitError(f"args must be a dict, got {type(args).__name__}")
    if context is not None and not isinstance(context, str):
        raise ArenaEmitError(f"context must be a string or None, got {type(context).__name__}")
    attempt = {
        "agent_id": _require_text("agent_id", agent_id),
        "framework": _require_text("framework", framework),
        "scenario_id": _require_text("scenario_id", scenario_id),
        "trial_id": _require_text("trial_id", trial_id),
        "tool": _require_text("tool", tool),
        "resource": _require_text("resource", resource),
        "args": args,
        "context": context,
        "timestamp": timestamp if timestamp is not None else _utc_now(),
    }
    try:
        payload = json.dumps(attempt, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ArenaEmitError(f"args must be JSON-serializable: {error}") from error
    for raw, escaped in _LINE_BREAKERS.items():
        payload = payload.replace(raw, escaped)
    return MARKER_PREFIX + payload


def emit_attempt(tool, resource, args=None, context=None, *, framework, scenario_id, agent_id=None, trial_id=None, timestamp=None, stream=None):
    """Prints one marker line and flushes it, so it survives even if the process is killed right after."""
    line = attempt_marker(
        tool, resource, args, context,
        framework=framework, scenario_id=scenario_id, agent_id=agent_id, trial_id=trial_id, timestamp=timestamp,
    )
    out = stream if stream is not None else sys.stdout
    out.write(line + "\n")
    out.flush()
    return line
