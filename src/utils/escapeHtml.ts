/**
 * Text made safe wherever the console hands a string to something that renders it as HTML (Leaflet
 * tooltips, ECharts tooltip formatters, a divIcon's markup): names and labels people enter or
 * publish show literally and never become markup. Safe in element content and in quoted attributes.
 */
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string | number | null | undefined): string => String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
