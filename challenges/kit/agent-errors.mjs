// The errors of the agents' JS client (see agent-client.mjs): agents catch them by class.

export class AgentError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AgentError';
  }
}

/** A refused HTTP request; `code` is the operator's error code when there is one (e.g. GUESS_TOO_LARGE). */
export class ArenaHttpError extends Error {
  constructor(method, path, status, body) {
    const detail = body && typeof body === 'object' && typeof body.error === 'string' ? body.error : JSON.stringify(body);
    super(`${method} ${path} -> ${status}: ${detail}`);
    this.name = 'ArenaHttpError';
    this.status = status;
    this.body = body;
    this.code = body && typeof body === 'object' ? body.code : undefined;
  }
}

/** Thrown out of any wait once the game has ended; runAgent turns it into exit 0. */
export class GameOver extends Error {
  constructor(end) {
    super('Game ended.');
    this.name = 'GameOver';
    this.end = end;
  }
}
