import { onSessionReset } from './sessionReset';
import { createStore, useStore } from './store';

/**
 * The licences of the vehicles whose details were opened from a licence link or have loaded, by
 * vehicle id: a detail tab (and its breadcrumb and window title) names the vehicle, not its id.
 */
const licences = createStore<Readonly<Record<number, string>>>({});

export function rememberLicence(vehicleId: number, licence: string): void {
  licences.set((s) => (s[vehicleId] === licence ? s : { ...s, [vehicleId]: licence }));
}

export const useVehicleLicences = (): Readonly<Record<number, string>> => useStore(licences);

// Another member may not see these vehicles.
onSessionReset(() => licences.set({}));
