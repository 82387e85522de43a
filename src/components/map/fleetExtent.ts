/** The box round the fleet's last known positions (WGS-84), where a map with nothing of its own to show opens. Pure. */

export interface Extent {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The extent of the positioned vehicles, or null when none has a position. */
export function fleetExtent(vehicles: ReadonlyArray<{ latitude: number | null; longitude: number | null }>): Extent | null {
  let box: Extent | null = null;
  for (const { latitude: lat, longitude: lng } of vehicles) {
    if (lat === null || lng === null || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    box = box
      ? { south: Math.min(box.south, lat), west: Math.min(box.west, lng), north: Math.max(box.north, lat), east: Math.max(box.east, lng) }
      : { south: lat, west: lng, north: lat, east: lng };
  }
  return box;
}
