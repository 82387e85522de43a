import L from 'leaflet';

export interface HeadingMarkerOptions extends L.CircleMarkerOptions {
  /** Degrees clockwise from north; null draws no arrow. */
  heading: number | null;
}

/** What the canvas renderer exposes to a layer while drawing (Leaflet's private API, typed here once). */
interface CanvasInternals {
  _renderer: { _ctx?: CanvasRenderingContext2D; _updateCircle(layer: L.CircleMarker): void };
  _point: L.Point;
  _radius: number;
  _empty(): boolean;
}

/**
 * A circle marker with a heading arrow, drawn on the canvas renderer (no DOM element per marker,
 * so thousands pan smoothly). The arrow is a triangle just outside the circle, pointing the way
 * the vehicle heads.
 */
export const HeadingMarker = L.CircleMarker.extend({
  _updatePath(this: L.CircleMarker & CanvasInternals & { options: HeadingMarkerOptions }) {
    this._renderer._updateCircle(this);
    const ctx = this._renderer._ctx;
    const heading = this.options.heading;
    if (!ctx || heading === null || heading === undefined || this._empty()) return;
    const a = (heading * Math.PI) / 180;
    const r = this._radius;
    const { x, y } = this._point;
    const tip = [x + Math.sin(a) * (r + 7), y - Math.cos(a) * (r + 7)];
    const left = [x + Math.sin(a - 0.5) * (r + 1), y - Math.cos(a - 0.5) * (r + 1)];
    const right = [x + Math.sin(a + 0.5) * (r + 1), y - Math.cos(a + 0.5) * (r + 1)];
    ctx.beginPath();
    ctx.moveTo(tip[0], tip[1]);
    ctx.lineTo(left[0], left[1]);
    ctx.lineTo(right[0], right[1]);
    ctx.closePath();
    ctx.fillStyle = this.options.color ?? '#333';
    ctx.fill();
  },
}) as unknown as new (latlng: L.LatLngExpression, options: HeadingMarkerOptions) => L.CircleMarker & { options: HeadingMarkerOptions };
