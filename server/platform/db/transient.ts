/**
 * Whether a database error is the server being away (restarting, unreachable, cutting
 * connections) rather than the statement being wrong: the same statement succeeds once it is back.
 * Writers that must not drop what they hold retry those, and only those.
 */

/** SQLSTATE codes of a server going away or not taking connections yet. */
const TRANSIENT_STATES = new Set([
  '57P01', // admin_shutdown: "terminating connection due to administrator command"
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** Node socket errors of a server that is not there. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** What pg says, without a code, about a connection that broke under it. */
const CONNECTION_MESSAGES = [/^Connection terminated/, /not queryable/, /timeout exceeded when trying to connect/, /^Client was closed/];

export function isTransientDbError(err: unknown): boolean {
  // Not `instanceof Error`: errors made in another realm (a VM context, a worker) are errors too.
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // Class 08: connection exception.
    if (TRANSIENT_STATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return true;
  }
  const errors = (err as { errors?: unknown }).errors; // an AggregateError from connecting to ::1 and 127.0.0.1
  if (Array.isArray(errors) && errors.some(isTransientDbError)) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((re) => re.test(message));
}
