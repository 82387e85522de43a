import type { MockAnswer, MockCall, MockHandler } from './types';

/** What Umi's mock middleware hands a handler: an Express request (JSON body parsed except on GET) and response. */
export interface UmiRequest {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface UmiResponse {
  status(code: number): UmiResponse;
  json(body: unknown): unknown;
  end(): unknown;
}

export type UmiHandler = (req: UmiRequest, res: UmiResponse) => void;

/** `'METHOD /api/path/:param'` → handler, the shape of a Umi mock file's default export. */
export type MockRoutes = Record<string, UmiHandler>;

export function toUmi(handler: MockHandler): UmiHandler {
  return (req, res) => {
    const call: MockCall = { params: req.params ?? {}, query: req.query ?? {}, body: req.body, headers: req.headers };
    const answer: MockAnswer = handler(call);
    const r = res.status(answer.status);
    if (answer.body === undefined) r.end();
    else r.json(answer.body);
  };
}
