import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { translator } from '../../schemas/kit/catalogue';
import { languageFromHeader } from '../../schemas/kit/i18n';
import { multipartBody, type UploadedFile } from './multipart';

/**
 * What Umi's mock middleware hands a handler: an Express request whose body it has already read
 * (JSON and url-encoded by body-parser, multipart by multer into `files`; GET bodies untouched)
 * and an Express response.
 */
export interface UmiRequest extends IncomingMessage {
  originalUrl?: string;
  body?: unknown;
  files?: UploadedFile[];
}

export interface UmiResponse {
  status(code: number): UmiResponse;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  end(body?: Buffer): unknown;
}

export type UmiHandler = (req: UmiRequest, res: UmiResponse) => void;

/** `'METHOD /api/path/:param'` → handler, the shape of a Umi mock file's default export. */
export type MockRoutes = Record<string, UmiHandler>;

// Connection-level headers: each hop sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'expect']);

const hasBody = (req: UmiRequest) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

async function rawBody(req: UmiRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/** The original request again, as Fastify's inject takes it: same method, URL, headers and body. */
export async function toInject(req: UmiRequest): Promise<InjectOptions> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  const options: InjectOptions = { method: req.method as InjectOptions['method'], url: req.originalUrl ?? req.url ?? '/', headers };
  if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) return options;
  const type = String(req.headers['content-type'] ?? '');
  if (/^multipart\/form-data/i.test(type)) {
    const rebuilt = multipartBody((req.body ?? {}) as Record<string, unknown>, req.files ?? []);
    headers['content-type'] = rebuilt.contentType;
    options.payload = rebuilt.body;
  } else if (/^application\/json\s*(;|$)/i.test(type))
    options.payload = JSON.stringify(req.body); // what body-parser's json() takes
  else if (/^application\/x-www-form-urlencoded/i.test(type))
    options.payload = new URLSearchParams(req.body as Record<string, string>).toString();
  // Any other type was left unread by Umi: pass its bytes on untouched.
  else options.payload = await rawBody(req);
  return options;
}

/** The server's answer, byte for byte, with its status and headers. */
export function send(res: UmiResponse, answer: LightMyRequestResponse): void {
  res.status(answer.statusCode);
  for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v as string | string[]);
  res.end(answer.rawPayload);
}

/** A Umi handler answering every call with the app `app()` resolves to (the first calls wait for its start-up). */
export function forwardTo(app: () => Promise<FastifyInstance>): UmiHandler {
  return (req, res) => {
    void (async () => {
      try {
        send(res, await (await app()).inject(await toInject(req)));
      } catch (e) {
        console.error('mock: the in-memory server failed', e);
        const t = translator(languageFromHeader([req.headers['accept-language']].flat()[0]));
        res.status(500).setHeader('content-type', 'application/json; charset=utf-8');
        res.end(Buffer.from(JSON.stringify({ success: false, code: 'http.serverError', message: t('http.serverError') })));
      }
    })();
  };
}
