/** One request as the mock runtime sees it, independent of the dev server carrying it. */
export interface MockCall {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The answer: status and JSON body (none for 204). */
export interface MockAnswer {
  status: number;
  body?: unknown;
}

export type MockHandler = (call: MockCall) => MockAnswer;

export const header = (call: MockCall, name: string): string | undefined => {
  const v = call.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
