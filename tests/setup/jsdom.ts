// jsdom does not provide structuredClone, which the console's form validation uses
// (src/components/schema/validation.ts) to normalise and check a copy of a body, not the form's own.
if (typeof globalThis.structuredClone !== 'function') {
  globalThis.structuredClone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
}
