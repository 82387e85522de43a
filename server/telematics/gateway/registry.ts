/** Live sessions by terminal: at most one per terminal, a new login replaces the old one. */

export interface RegisteredSession {
  readonly terminalId: number | undefined;
  close(reason: string): void;
}

export class SessionRegistry<S extends RegisteredSession = RegisteredSession> {
  private readonly byTerminal = new Map<number, S>();

  /** Makes `s` the terminal's session; returns the one it replaces (to be closed by the caller). */
  attach(s: S): S | undefined {
    const id = s.terminalId;
    if (id === undefined) throw new Error('attach before authentication');
    const prev = this.byTerminal.get(id);
    this.byTerminal.set(id, s);
    return prev !== s ? prev : undefined;
  }

  /** Forgets `s` if it is still the terminal's session; true when it was (the terminal went offline). */
  detach(s: S): boolean {
    const id = s.terminalId;
    if (id === undefined || this.byTerminal.get(id) !== s) return false;
    this.byTerminal.delete(id);
    return true;
  }

  get(terminalId: number): S | undefined {
    return this.byTerminal.get(terminalId);
  }

  get size(): number {
    return this.byTerminal.size;
  }
}
