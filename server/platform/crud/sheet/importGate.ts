import { AppError } from '../../http/errors';

/** Imports (parse and check) running at once per server: each may hold a few tens of MB. */
export const MAX_RUNNING_IMPORTS = 3;
/** Imports waiting for a slot before further ones are refused. */
export const MAX_WAITING_IMPORTS = 20;

/**
 * One import per member at a time, and at most MAX_RUNNING_IMPORTS server-wide (others wait in
 * turn, up to MAX_WAITING_IMPORTS): a member's second upload while the first runs, or a full
 * queue, is refused with 429 rather than queued without end.
 */
export class ImportGate {
  private readonly members = new Set<number>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning = MAX_RUNNING_IMPORTS,
    private readonly maxWaiting = MAX_WAITING_IMPORTS,
  ) {}

  /** Runs `job` for `memberId` once a slot is free; 429 when the member already has one running or queued. */
  async run<T>(memberId: number, job: () => Promise<T>): Promise<T> {
    if (this.members.has(memberId)) throw new AppError(429, 'sheet.busyMember');
    if (this.running >= this.maxRunning && this.waiting.length >= this.maxWaiting) throw new AppError(429, 'sheet.busy');
    this.members.add(memberId);
    try {
      if (this.running >= this.maxRunning) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.running++;
      try {
        return await job();
      } finally {
        const next = this.waiting.shift();
        if (next)
          next(); // the slot passes straight to the next in line
        else this.running--;
      }
    } finally {
      this.members.delete(memberId);
    }
  }
}

const gates = new WeakMap<object, ImportGate>();
/** The gate of one server (keyed by its database handle, which every route of that server shares). */
export function importGate(server: object): ImportGate {
  let g = gates.get(server);
  if (!g) gates.set(server, (g = new ImportGate()));
  return g;
}
