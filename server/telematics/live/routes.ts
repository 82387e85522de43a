/**
 * GET /api/vehicle/live (WebSocket): positions and alarms of the vehicles the caller may see.
 * Browsers cannot set Authorization on a WebSocket, so the token comes as `?token=` or as a
 * subprotocol: `new WebSocket(url, ['fleetstar', token])` (the server selects 'fleetstar').
 * The client may send `{"vehicleIds":[…]}` to narrow the stream, `{"vehicleIds":null}` to widen it.
 * Only a full session opens one (a weak-password session is refused 403, as REST refuses it), and
 * the socket closes when its session ends or changes scope (sessionWatch.ts, LIVE_CLOSE).
 */

import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkSessionScope } from '../../platform/auth/authenticate';
import { PUBLIC } from '../../platform/auth/caller';
import { callerFromToken, type SessionDeps } from '../../platform/auth/sessions';
import { unauthorized } from '../../platform/http/errors';
import type { LiveHub, LiveSubscriber } from './hub';
import type { SessionWatch, WatchedSocket } from './sessionWatch';

export const LIVE_SUBPROTOCOL = 'fleetstar';

/** The minimum of a `ws` socket this route uses (the package ships no types here). */
interface LiveSocket {
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', fn: (data: Buffer) => void): void;
  on(event: 'close', fn: () => void): void;
}

function tokenOf(req: FastifyRequest): string | null {
  const { query } = req;
  const q = query && typeof query === 'object' && 'token' in query ? query.token : undefined;
  if (typeof q === 'string' && q) return q;
  const offered = req.headers['sec-websocket-protocol'];
  if (typeof offered !== 'string') return null;
  const candidates = offered
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== LIVE_SUBPROTOCOL);
  return candidates[0] ?? null;
}

function parseFilter(data: Buffer): Set<number> | null | undefined {
  try {
    const m = JSON.parse(data.toString('utf8')) as { vehicleIds?: unknown };
    if (m.vehicleIds === null) return null;
    if (Array.isArray(m.vehicleIds) && m.vehicleIds.length <= 10_000 && m.vehicleIds.every((v) => Number.isInteger(v)))
      return new Set(m.vehicleIds as number[]);
  } catch {
    /* not JSON: ignored */
  }
  return undefined;
}

export async function registerLiveRoute(app: FastifyInstance, hub: LiveHub, watch: SessionWatch, deps: SessionDeps): Promise<void> {
  if (!app.hasPlugin('@fastify/websocket')) {
    await app.register(websocket, {
      options: {
        maxPayload: 64 * 1024,
        // Select our name, never echo the token back.
        handleProtocols: (protocols: Set<string>) => (protocols.has(LIVE_SUBPROTOCOL) ? LIVE_SUBPROTOCOL : false),
      },
    });
  }
  app.get(
    '/api/vehicle/live',
    {
      websocket: true,
      // PUBLIC for the bearer-header hook only: the token is checked right here, before the upgrade.
      config: { permission: PUBLIC },
      schema: {
        tags: ['telematics'],
        summary: 'live positions and alarms (WebSocket)',
        querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 2048 } } },
      },
      preValidation: async (req) => {
        const token = tokenOf(req);
        const caller = token ? await callerFromToken(deps, token) : null;
        if (!caller) throw unauthorized();
        // A weak-password session may only change its password: no live data.
        checkSessionScope(caller, false);
        req.caller = caller;
      },
    },
    (raw, req) => {
      const socket = raw as unknown as LiveSocket; // the ws socket; typed by the interface above
      const caller = req.caller!;
      const sub: LiveSubscriber = {
        orgPath: caller.orgPath,
        memberId: caller.memberId,
        backlog: () => socket.bufferedAmount,
        send: (json) => socket.send(json),
      };
      if (!hub.add(sub)) {
        socket.close(1013, 'busy');
        return;
      }
      socket.on('message', (data) => {
        const ids = parseFilter(data);
        if (ids === null) delete sub.vehicleIds;
        else if (ids) sub.vehicleIds = ids;
      });
      const watched: WatchedSocket = {
        sessionId: caller.sessionId,
        memberId: caller.memberId,
        orgPath: caller.orgPath,
        close: (code, reason) => socket.close(code, reason),
      };
      watch.add(watched);
      socket.on('close', () => {
        hub.remove(sub);
        watch.remove(watched);
      });
      socket.send(JSON.stringify({ type: 'hello', orgPath: sub.orgPath }));
    },
  );
}
