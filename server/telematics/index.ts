/**
 * Telematics wiring for `npm start`: the JT/T 808 gateway, the position writer, downlink command
 * and live-push routes, and the demo fleet. One call from main.ts (before listen) and one close.
 */

import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { Fleet } from '../simulator/fleet';
import { demoFleet } from '../simulator/demo';
import { CommandService } from './commands/service';
import { Jt808Gateway } from './gateway/server';
import { LiveHub } from './live/hub';
import { registerTelematicsRoutes } from './routes';
import { ObdWriter } from './store/obdWriter';
import { PositionWriter } from './store/writer';

export interface Telematics {
  /** Null when the gateway is disabled (JT808_PORT=0). */
  gateway: Jt808Gateway | null;
  port: number | null;
  hub: LiveHub;
  fleet: Fleet | null;
  close(): Promise<void>;
}

export interface TelematicsOptions {
  database: Database;
  config: Pick<Config, 'jt808Port' | 'host' | 'simulate' | 'tokenTtlHours'>;
  secret: string;
}

/**
 * Registers the telematics routes on `app` (call before app.listen) and starts the gateway and
 * the demo fleet. Routes answer 406 "terminal offline" when the gateway is disabled.
 */
export async function startTelematics(app: FastifyInstance, opts: TelematicsOptions): Promise<Telematics> {
  const { database, config } = opts;
  const db = database.db;
  const writer = new PositionWriter(db, { concurrency: database.kind === 'postgres' ? 4 : 1 });
  const obdWriter = new ObdWriter(db);
  const hub = new LiveHub();
  writer.on('stored', hub.publish);
  const gateway = config.jt808Port ? new Jt808Gateway({ db, writer, obdWriter, log: app.log }) : null;
  const commands = gateway ? new CommandService(db, gateway) : null;
  await registerTelematicsRoutes(app, { db, commands, hub, sessionDeps: { db, secret: opts.secret, ttlHours: config.tokenTtlHours } });

  let port: number | null = null;
  let fleet: Fleet | null = null;
  if (gateway && commands) {
    await commands.expireStale();
    port = await gateway.listen(config.jt808Port, config.host);
    app.log.info({ port }, 'JT/T 808 gateway listening');
    const terminals = await demoFleet(db, config.simulate);
    if (terminals.length) {
      fleet = new Fleet({ host: '127.0.0.1', port, terminals, intervalMs: 10_000 });
      // Not awaited: the API must not wait for the demo fleet to connect.
      void fleet.start().then(
        () => app.log.info({ terminals: terminals.length }, 'demo fleet reporting'),
        (err: unknown) => app.log.warn({ err }, 'demo fleet failed to start'),
      );
    }
  }
  return {
    gateway,
    port,
    hub,
    fleet,
    async close() {
      await fleet?.stop(1000);
      commands?.close();
      await gateway?.close();
      await Promise.all([writer.flush(), obdWriter.flush()]);
    },
  };
}
