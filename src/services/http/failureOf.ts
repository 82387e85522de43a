import type { AxiosError } from '@umijs/max';
import { serverMessage } from './failure';

/** A field error as the server sends it in a 400 body. */
export interface ServerFieldError {
  field: string;
  key: string;
  message: string;
}

export interface CallFailure {
  status?: number;
  message?: string;
  errors: ServerFieldError[];
}

/** The status, server message and field errors of a rejected call, for callers that show it themselves. */
export function failureOf(error: unknown): CallFailure {
  const response = (error as AxiosError).response;
  const data = response?.data as { errors?: ServerFieldError[] } | undefined;
  return { status: response?.status, message: serverMessage(response?.data), errors: Array.isArray(data?.errors) ? data.errors : [] };
}
