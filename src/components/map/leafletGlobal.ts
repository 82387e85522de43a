/**
 * Leaflet plugins (leaflet.markercluster, Geoman) extend the global `L`, which the bundled Leaflet
 * module does not set: import this before a plugin so it finds the same Leaflet the console uses.
 */
import L from 'leaflet';

(window as unknown as { L: typeof L }).L = L;
