// An HTTP-shaped failure raised by the engine: the route answers `status` with `{error, code?}`.
export class ArenaError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ArenaError';
  }

  get body(): { error: string; code?: string } {
    return this.code === undefined ? { error: this.message } : { error: this.message, code: this.code };
  }
}
