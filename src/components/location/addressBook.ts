/**
 * Addresses the console has been told, by position (about 11 m cells, as the server caches them):
 * every place a page shows in one frame is asked in one call, and each place once. A district
 * answered while a provider is configured is asked again after a while (the provider may have
 * answered by then).
 */
import { GEOCODE_BATCH, reverseGeocode, type PositionAddress } from '../../services/geocode';

const RETRY_DISTRICT_MS = 60_000;

interface Entry {
  answer: Promise<PositionAddress | null>;
  at: number;
  /** A district while a provider exists: worth asking again later. */
  provisional: boolean;
}

const cellOf = (lat: number, lng: number) => `${Math.round(lat * 1e4)},${Math.round(lng * 1e4)}`;

const book = new Map<string, Entry>();
let waiting: Array<{ latitude: number; longitude: number; done: (a: PositionAddress | null) => void }> = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  const batch = waiting;
  waiting = [];
  for (let i = 0; i < batch.length; i += GEOCODE_BATCH) {
    const part = batch.slice(i, i + GEOCODE_BATCH);
    reverseGeocode(part.map(({ latitude, longitude }) => ({ latitude, longitude }))).then(
      (r) =>
        part.forEach((p, j) => {
          const a = r.data[j] ?? null;
          const e = book.get(cellOf(p.latitude, p.longitude));
          if (e) e.provisional = r.provider !== null && a?.source !== 'provider';
          p.done(a);
        }),
      () =>
        part.forEach((p) => {
          // A failed call is not remembered: the next page asks again.
          book.delete(cellOf(p.latitude, p.longitude));
          p.done(null);
        }),
    );
  }
}

/** The address of a WGS-84 position, or null when none is known (or the call failed). */
export function addressOf(latitude: number, longitude: number): Promise<PositionAddress | null> {
  const key = cellOf(latitude, longitude);
  const known = book.get(key);
  if (known && !(known.provisional && Date.now() - known.at > RETRY_DISTRICT_MS)) return known.answer;
  const answer = new Promise<PositionAddress | null>((done) => waiting.push({ latitude, longitude, done }));
  book.set(key, { answer, at: Date.now(), provisional: false });
  if (!scheduled) {
    scheduled = true;
    setTimeout(flush, 0);
  }
  return answer;
}
