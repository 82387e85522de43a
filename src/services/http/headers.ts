import { NONE } from '../../../schemas/kit/authority';

/** Per-call options the console's services pass to `request` besides axios's own. */
export interface CallOptions {
  /** Permission code the call needs, sent as X-Authority (a hint: the server decides). Default NONE. */
  authority?: string;
  /** x-application-code; default obd-web. */
  application?: string;
  /** AppCode header, for the calls SPEC.md §7 names. */
  appCode?: string;
  /** A bearer token other than the session's (the weak-password change). */
  token?: string;
  /** No 201/204 success toast (e.g. logout answers 204, which is no deletion). */
  quiet?: boolean;
  /** The caller shows the failure itself. */
  skipErrorHandler?: boolean;
  /** An export's or import's progress id (X-Progress-Id): the server reports its rows under it. */
  progressId?: string;
}

export const DEFAULT_APPLICATION = 'obd-web';

/** The headers of SPEC.md §7 for one call. */
export function callHeaders(opts: CallOptions, sessionToken: string | null, language: string): Record<string, string> {
  const token = opts.token ?? sessionToken;
  return {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    'X-Authority': opts.authority ?? NONE,
    'x-application-code': opts.application ?? DEFAULT_APPLICATION,
    ...(opts.appCode ? { AppCode: opts.appCode } : {}),
    ...(opts.progressId ? { 'X-Progress-Id': opts.progressId } : {}),
    'Accept-Language': language,
    // Spreadsheets show and read times in the zone the screen shows them in.
    'X-Time-Zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}
