import type { EntityCalls } from '../schema/pageContract';
import { APPLICATIONS, codeFor, type Application } from '../../services/passport';

/** One value per application, made once so the pages' props keep their identity across renders. */
export function perApplication<T>(make: (application: Application) => T): Readonly<Record<Application, T>> {
  return Object.fromEntries(APPLICATIONS.map((application) => [application, make(application)])) as Record<Application, T>;
}

/** Each application's rows are called with its header and guarded by its own codes (SPEC.md §6). */
export const APPLICATION_CALLS = perApplication<EntityCalls>((application) => ({
  options: { application },
  code: (code: string) => codeFor(code, application),
}));
