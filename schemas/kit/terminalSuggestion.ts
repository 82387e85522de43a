/** A terminal offered for binding (SPEC §7 terminal suggest): its id (the select's value), number, SIM and the vehicle using it. */
export interface TerminalSuggestion {
  value: number;
  label: string;
  terminalNo: string;
  sim: string;
  licence: string | null;
}
