import type L from 'leaflet';

/**
 * How a marker names its vehicle: on hover only, by a plate beside it (the "show plates" switch),
 * or, the chosen vehicle, by a plate that stands out whatever the switch says.
 */
export type PlateMode = 'hover' | 'plate' | 'selected';

export const plateMode = (chosen: boolean, plates: boolean): PlateMode => (chosen ? 'selected' : plates ? 'plate' : 'hover');

/** The tooltip of each mode: a plate sits to the right of its marker, clear of the heading arrow's circle. */
export const PLATE_TOOLTIPS: Record<PlateMode, L.TooltipOptions> = {
  hover: { direction: 'top', offset: [0, -8] },
  plate: { permanent: true, direction: 'right', offset: [8, 0], className: 'fs-plate' },
  selected: { permanent: true, direction: 'right', offset: [12, 0], className: 'fs-plate fs-plate-selected' },
};

/** The chosen vehicle's marker: larger, with a dark ring around its status colour. */
export const SELECTED_STYLE = { radius: 10, weight: 3, ring: '#141414' } as const;
export const PLAIN_STYLE = { radius: 6, weight: 1 } as const;
