/**
 * Live gateway sessions as the other features see them (issue 39, finding 4). A terminal's live
 * session carries its binding (vehicle, organisations) from its authentication; a write that
 * changes which vehicle or organisation a terminal belongs to calls `rebind`, and the sessions of
 * those terminals, wherever they are held, read their binding again before it answers. Telematics
 * installs the way there (its gateway, or the NATS downlink to whichever process holds the
 * terminal, as a registration reset drops a session); without a gateway it does nothing.
 */

import type { RowChange } from './crud/routes';

export type Rebind = (terminalIds: number[]) => Promise<void>;

export class TerminalSessions {
  private installed: Rebind | null = null;

  install(rebind: Rebind | null): void {
    this.installed = rebind;
  }

  /** Makes the live sessions of these terminals (nulls ignored) read their binding again. */
  async rebind(terminalIds: Iterable<unknown>): Promise<void> {
    const ids = new Set<number>();
    for (const id of terminalIds) if (typeof id === 'number') ids.add(id);
    if (ids.size && this.installed) await this.installed([...ids]);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    terminalSessions: TerminalSessions;
  }
}

const changed = (c: RowChange, props: string[]) => !c.before || !c.after || props.some((p) => c.before![p] !== c.after![p]);

/**
 * The terminals whose binding a write of vehicles or terminals changed: a vehicle's terminal or
 * organisation (both terminals, the one left and the one taken), a terminal's organisation or
 * whether it is in use, and any created or deleted row's.
 */
export const reboundTerminals = {
  vehicle: (changes: RowChange[]) =>
    changes.filter((c) => changed(c, ['terminalId', 'orgId'])).flatMap((c) => [c.before?.terminalId, c.after?.terminalId]),
  terminal: (changes: RowChange[]) => changes.filter((c) => c.before && changed(c, ['orgId', 'inUse'])).map((c) => c.before!.id),
};
