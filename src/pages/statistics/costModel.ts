/** The cost page's figures and groupings, named once for its labels (console.statistics.cost.<name>). */

/** The three costs a total is made of, in the chart's and the table's order. */
export const COST_PARTS = ['fuel', 'maintenance', 'other'] as const;

/** The figures shown as totals: the three costs, their sum, and the sum per km and per day. */
export const COST_TOTALS = [...COST_PARTS, 'total', 'perKm', 'perDay'] as const;

/** What the table's rows can be: one per vehicle, per model or per organisation. */
export const COST_TABLE_GROUPS = ['vehicle', 'model', 'org'] as const;
export type CostTableGroup = (typeof COST_TABLE_GROUPS)[number];

/** Every name labelled by `console.statistics.cost.<name>` from a variable. */
export const COST_LABELS = [...COST_TOTALS, 'mileageKm', ...COST_TABLE_GROUPS] as const;
export type CostLabel = (typeof COST_LABELS)[number];

/** Decimals shown of a figure: money in cents, cost per km in tenths of a cent, km in tenths. */
export const costDigits = (k: CostLabel): number => (k === 'perKm' ? 3 : k === 'mileageKm' ? 1 : 2);
