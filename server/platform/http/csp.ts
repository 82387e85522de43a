import type { FastifyInstance } from 'fastify';

/**
 * `upgrade-insecure-requests` makes a browser fetch every script and style over HTTPS: on a plain
 * HTTP server reached by a LAN address or a host name that blanks the console. So it is sent only
 * when the request came over HTTPS — TLS on the socket, or X-Forwarded-Proto https from a proxy
 * TRUST_PROXY believes (Fastify's `req.protocol` weighs both).
 */
export function upgradeInsecureRequestsOverHttps(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string' && req.protocol === 'https' && !csp.includes('upgrade-insecure-requests')) {
      reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
    }
    return payload;
  });
}
