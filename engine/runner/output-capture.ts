// Bounded capture of one output stream: the first `cap` bytes (what the governance parser reads) and the last
// `tailCap` bytes (for logs). Everything in between is counted and dropped, so a flooding agent costs no memory.
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(
    readonly cap: number,
    private readonly tailCap: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.cap) {
      const part = chunk.subarray(0, this.cap - this.headBytes);
      this.head.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    if (this.tailCap <= 0) return;
    const piece = chunk.length > this.tailCap ? chunk.subarray(chunk.length - this.tailCap) : chunk;
    this.tail.push(Buffer.from(piece));
    this.tailBytes += piece.length;
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= this.tailCap) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  /** The captured head, decoded as UTF-8 with replacement characters. */
  text(): string {
    return Buffer.concat(this.head).toString('utf8');
  }

  tailText(): string {
    const all = Buffer.concat(this.tail);
    return all.subarray(Math.max(0, all.length - this.tailCap)).toString('utf8');
  }
}
