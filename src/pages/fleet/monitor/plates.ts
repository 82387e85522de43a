import L from 'leaflet';

/** How a marker names its vehicle: on hover only, or by a plate beside it (the "show plates" switch). */
export type PlateMode = 'hover' | 'plate';

export const plateMode = (plates: boolean): PlateMode => (plates ? 'plate' : 'hover');

/** The tooltip of each mode: a plate sits to the right of its marker, clear of the heading arrow's circle. */
export const PLATE_TOOLTIPS: Record<PlateMode, L.TooltipOptions> = {
  hover: { direction: 'top', offset: [0, -8] },
  plate: { permanent: true, direction: 'right', offset: [8, 0], className: 'fs-plate' },
};

/** The chosen vehicle's marker: larger, with a dark ring around its status colour. */
export const SELECTED_STYLE = { radius: 10, weight: 3, ring: '#141414' } as const;
export const PLAIN_STYLE = { radius: 6, weight: 1 } as const;

/**
 * The halo round the chosen vehicle, on a pane of its own beneath the vehicles' canvas (so it never
 * hides a marker) and above the fences'; it takes no pointer, so hovering still names what is under it.
 */
export const HALO_PANE = 'selected';
export const HALO_PANE_Z = '390';
const HALO_PX = 36;

export const haloMarker = (at: L.LatLngExpression): L.Marker =>
  L.marker(at, {
    pane: HALO_PANE,
    interactive: false,
    keyboard: false,
    icon: L.divIcon({ className: 'fs-selected-halo', iconSize: [HALO_PX, HALO_PX] }),
  });
