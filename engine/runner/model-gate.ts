// Capacity of model servers, kept by the engine: model agents are separate sandboxed processes, so only the engine
// sees every request they send. Each plain-http model server gets one gate per engine process, shared by every seat
// and game (and run) that uses it; a request waits in FIFO order until one of the server's slots is free. The
// capacity is model.yaml's `capacity` (the smallest when agents disagree), else what the server reports (llama.cpp
// `/props` total_slots), else 1: a local server runs one request at a time unless it says otherwise.
import http from 'node:http';

export interface GateStats {
  /** `host:port`. */
  server: string;
  capacity: number;
  /** Where the capacity came from. */
  capacity_source: 'model.yaml' | 'server' | 'default';
  requests: number;
  /** Sum over requests of the time each held a slot (request sent to response ended). */
  busy_ms: number;
  /** Sum over requests of the time each waited for a slot. */
  queued_ms: number;
  max_queued_ms: number;
  max_in_flight: number;
}

const PROBE_TIMEOUT_MS = 2_000;

class Gate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private configured: number | undefined;
  private reported: number | undefined;
  private probe: Promise<void> | null = null;
  readonly stats: GateStats;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.stats = {
      server: `${host}:${port}`,
      capacity: 1,
      capacity_source: 'default',
      requests: 0,
      busy_ms: 0,
      queued_ms: 0,
      max_queued_ms: 0,
      max_in_flight: 0,
    };
  }

  configure(capacity: number | undefined): void {
    if (capacity !== undefined) this.configured = Math.min(this.configured ?? capacity, capacity);
    this.refresh();
  }

  private refresh(): void {
    const source = this.configured !== undefined ? 'model.yaml' : this.reported !== undefined ? 'server' : 'default';
    this.stats.capacity = this.configured ?? this.reported ?? 1;
    this.stats.capacity_source = source;
    this.wake();
  }

  /** Asks the server once how many requests it runs at once (llama.cpp); others keep the default. */
  private probeCapacity(): Promise<void> {
    this.probe ??= new Promise<void>((resolve) => {
      const req = http.get({ host: this.host, port: this.port, path: '/props', timeout: PROBE_TIMEOUT_MS }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 1_000_000) body += chunk;
        });
        res.on('end', () => {
          try {
            const slots = (JSON.parse(body) as { total_slots?: unknown }).total_slots;
            if (res.statusCode === 200 && Number.isInteger(slots) && (slots as number) >= 1) this.reported = Math.min(slots as number, 256);
          } catch {
            // Not llama.cpp: the default stands.
          }
          this.refresh();
          resolve();
        });
        res.on('error', () => resolve());
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve());
    });
    return this.probe;
  }

  /** Waits for a slot; resolves with the release function (idempotent) and the time spent waiting. */
  async acquire(): Promise<{ release: () => void; queuedMs: number }> {
    const asked = performance.now();
    if (this.configured === undefined) await this.probeCapacity();
    // A free slot is taken at once; otherwise wake() hands one over, already counted.
    if (this.inFlight < this.stats.capacity && this.waiting.length === 0) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const granted = performance.now();
    const queuedMs = granted - asked;
    this.stats.requests++;
    this.stats.queued_ms += queuedMs;
    this.stats.max_queued_ms = Math.max(this.stats.max_queued_ms, queuedMs);
    this.stats.max_in_flight = Math.max(this.stats.max_in_flight, this.inFlight);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.stats.busy_ms += performance.now() - granted;
      this.wake();
    };
    return { release, queuedMs };
  }

  private wake(): void {
    while (this.waiting.length > 0 && this.inFlight < this.stats.capacity) {
      this.inFlight++;
      (this.waiting.shift() as () => void)();
    }
  }
}

const gates = new Map<string, Gate>();

/** The gate of `host:port` (one per engine process), told model.yaml's capacity if the agent's config sets one. */
export function modelGate(host: string, port: number, capacity?: number): Gate {
  const key = `${host}:${port}`;
  let gate = gates.get(key);
  if (!gate) {
    gate = new Gate(host, port);
    gates.set(key, gate);
  }
  gate.configure(capacity);
  return gate;
}

export type { Gate as ModelGate };

/** Cumulative counters of every model server gated so far (a run reports the difference over its own span). */
export function modelGateStats(): GateStats[] {
  return [...gates.values()].map((g) => ({ ...g.stats }));
}
