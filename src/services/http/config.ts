import { getLocale, type AxiosError, type AxiosResponse, type RequestConfig, type RequestOptions } from '@umijs/max';
import { translator } from '../../../schemas/kit/catalogueStore';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../schemas/kit/i18n';
import { apiBase } from './baseUrl';
import { describeFailure, successText } from './failure';
import { feedback, showFailure } from './feedback';
import { callHeaders, type CallOptions } from './headers';
import { onSessionEnded } from './sessionEnd';

export const REQUEST_TIMEOUT_MS = 300_000;

const t = (key: string) => translator(matchLanguage(getLocale()) ?? DEFAULT_LANGUAGE)(key);

/**
 * What the request layer needs from the session above it, handed in by app.tsx so this layer
 * imports nothing of the session or the shell.
 */
export interface SessionHooks {
  /** The signed-in session's token, if any. */
  getToken(): string | null;
  /** 401 "log in again", confirmed: forget the session and start over at the login page. */
  onSessionExpired(): void;
}

let hooks: SessionHooks = { getToken: () => null, onSessionExpired: () => window.location.reload() };

/** Umi's request configuration (exported from app.tsx): base address, timeout, headers, SPEC.md §8. */
export function requestConfig(session: SessionHooks): RequestConfig {
  hooks = session;
  // The live socket closed because the session ended: the same question as a 401 answer.
  onSessionEnded(() => reportFailure({ response: { status: 401 } }));
  return {
    baseURL: apiBase(window.location),
    timeout: REQUEST_TIMEOUT_MS,
    requestInterceptors: [
      (config: RequestOptions) => {
        const opts = config as RequestOptions & CallOptions;
        return { ...config, headers: { ...config.headers, ...callHeaders(opts, hooks.getToken(), getLocale()) } };
      },
    ],
    responseInterceptors: [
      (response: AxiosResponse) => {
        const opts = response.config as CallOptions;
        const text = successText(response.status, t, opts.quiet);
        if (text) void feedback().message.success(text);
        return response;
      },
    ],
    errorConfig: {
      errorHandler: (error, opts) => {
        if ((opts as CallOptions).skipErrorHandler) return;
        reportFailure(error);
      },
    },
  };
}

/** Shows what SPEC.md §8 says for a failed call. */
export function reportFailure(error: unknown): void {
  const response = (error as AxiosError).response;
  showFailure(describeFailure({ status: response?.status, data: response?.data }, t), () => hooks.onSessionExpired());
}
