/** Leaflet and the map are fetched only when the server names a tile source (its own module, so tests can load it directly). */
export const loadLocationMap = () => import('./LocationMap');
