/**
 * A platform fence as a terminal-side area (JT/T 808 §8.32–8.40): a circle as 0x8600, a rectangle as
 * 0x8602, a polygon as 0x8604, a route corridor as 0x8606, each under the fence's id, and the matching
 * delete (0x8601/0x8603/0x8605/0x8607). The fence's entry and exit alarms become the attribute bits
 * "alarm to the driver and the platform" on entry and exit, its speed limit the area's maximum speed
 * (10 s over it before the terminal alarms). A district (a boundary of thousands of points) is not
 * sent; neither is a fence whose message would not fit one packet (the layout of 2019, the longest).
 */

import type { Kysely } from 'kysely';
import { openRing, type FenceGeometry } from '../../../schemas/kit/fenceGeometry';
import type { DB } from '../../platform/db/tables';
import { invalid, refNotFound } from '../../platform/http/errors';
import { orgUnder } from '../../platform/scope';
import { AREA_SPEED_LIMIT, encodeBody, MAX_BODY_LENGTH, MsgId, type Jt808BodyInput, type Point, type RouteSection } from '../jt808/codec';

const LABELS = 'telematics.fields';
const ENTRY_ALARMS = 0x0004 | 0x0008;
const EXIT_ALARMS = 0x0010 | 0x0020;
const SOUTH = 0x0040;
const WEST = 0x0080;
/** Seconds over the area's speed limit before the terminal alarms (a fence has no figure of its own). */
export const FENCE_OVERSPEED_SECONDS = 10;
/** 0x8606 gives a section's width in a BYTE of metres. */
export const MAX_ROUTE_WIDTH = 255;
/** Action 1 of 0x8600/0x8602: add the areas, keeping the terminal's others. */
const APPEND = 1;

export type FenceAction = 'set' | 'delete';

export interface FenceRow {
  id: number;
  name: string;
  fence_type: string;
  geometry: unknown;
  alarm_on_enter: boolean | null;
  alarm_on_exit: boolean | null;
  speed_limit: number | null;
}

const refused = (key: string, params: Record<string, number | string> = {}) =>
  invalid([{ field: 'fenceId', key: `telematics.${key}`, params, labelKey: `${LABELS}.fenceId` }]);

/** [lng, lat] pairs as points, with the hemisphere bits; one fence must lie in one quadrant. */
function pointsOf(pairs: number[][]): { points: Point[]; bits: number } {
  const south = pairs.every(([, lat]) => lat < 0);
  const west = pairs.every(([lng]) => lng < 0);
  if ((!south && pairs.some(([, lat]) => lat < 0)) || (!west && pairs.some(([lng]) => lng < 0))) throw refused('fenceAcrossHemispheres');
  return { points: pairs.map(([lng, lat]) => ({ latitude: lat, longitude: lng })), bits: (south ? SOUTH : 0) | (west ? WEST : 0) };
}

/** The set message of a fence (throws a 400 naming why it cannot go to a terminal). */
export function setAreaMessage(f: FenceRow): Jt808BodyInput {
  const g = (f.geometry ?? {}) as FenceGeometry;
  const alarms = (f.alarm_on_enter !== false ? ENTRY_ALARMS : 0) | (f.alarm_on_exit !== false ? EXIT_ALARMS : 0);
  const speed = f.speed_limit !== null && f.speed_limit > 0 ? { maxSpeed: f.speed_limit, overspeedSeconds: FENCE_OVERSPEED_SECONDS } : {};
  const attributes = (bits: number) => alarms | bits | (speed.maxSpeed !== undefined ? AREA_SPEED_LIMIT : 0);
  let message: Jt808BodyInput;
  switch (f.fence_type) {
    case 'circle': {
      const { points, bits } = pointsOf([g.center ?? []]);
      const area = { id: f.id, attributes: attributes(bits), centre: points[0], radius: Math.round(g.radius ?? 0), name: f.name, ...speed };
      message = { msgId: MsgId.SetCircleAreas, body: { action: APPEND, areas: [area] } };
      break;
    }
    case 'rectangle': {
      const { points, bits } = pointsOf(g.points ?? []);
      // Magnitudes (the hemisphere bits carry the signs): top is the edge nearer the north pole,
      // left the edge further west.
      const lats = points.map((p) => Math.abs(p.latitude));
      const lngs = points.map((p) => Math.abs(p.longitude));
      const [top, bottom] = bits & SOUTH ? [Math.min(...lats), Math.max(...lats)] : [Math.max(...lats), Math.min(...lats)];
      const [left, right] = bits & WEST ? [Math.max(...lngs), Math.min(...lngs)] : [Math.min(...lngs), Math.max(...lngs)];
      const area = {
        id: f.id,
        attributes: attributes(bits),
        topLeft: { latitude: top, longitude: left },
        bottomRight: { latitude: bottom, longitude: right },
        name: f.name,
        ...speed,
      };
      message = { msgId: MsgId.SetRectangleAreas, body: { action: APPEND, areas: [area] } };
      break;
    }
    case 'polygon': {
      const { points, bits } = pointsOf(openRing(g.points ?? []));
      message = { msgId: MsgId.SetPolygonArea, body: { id: f.id, attributes: attributes(bits), vertices: points, name: f.name, ...speed } };
      break;
    }
    case 'route': {
      const width = Math.round(g.width ?? 0);
      if (width > MAX_ROUTE_WIDTH) throw refused('fenceRouteTooWide', { max: MAX_ROUTE_WIDTH });
      const { points, bits } = pointsOf(g.path ?? []);
      const sections: RouteSection[] = points.map((point, i) => ({
        pointId: i + 1,
        sectionId: i + 1,
        point,
        width,
        attributes: (bits & SOUTH ? 0x04 : 0) | (bits & WEST ? 0x08 : 0) | (speed.maxSpeed !== undefined ? 0x02 : 0),
        ...speed,
      }));
      message = { msgId: MsgId.SetRoute, body: { id: f.id, attributes: alarms, points: sections, name: f.name } };
      break;
    }
    default:
      throw refused('fenceNotForTerminal');
  }
  if (encodeBody(message, 2019, 480).length > MAX_BODY_LENGTH) throw refused('fenceTooLarge', { max: MAX_BODY_LENGTH });
  return message;
}

const DELETE_OF: Record<string, number> = {
  circle: MsgId.DeleteCircleAreas,
  rectangle: MsgId.DeleteRectangleAreas,
  polygon: MsgId.DeletePolygonAreas,
  route: MsgId.DeleteRoutes,
};

/** The delete message of a fence's terminal-side area. */
export function deleteAreaMessage(f: Pick<FenceRow, 'id' | 'fence_type'>): Jt808BodyInput {
  const msgId = DELETE_OF[f.fence_type];
  if (msgId === undefined) throw refused('fenceNotForTerminal');
  // The four delete ids share one body layout.
  return { msgId, body: { ids: [f.id] } } as Jt808BodyInput;
}

/** The fence the caller's subtree holds, as the message the action sends; 400 when it is not to be seen. */
export async function fenceMessage(db: Kysely<DB>, orgPath: string, fenceId: number, action: FenceAction): Promise<Jt808BodyInput> {
  const f = await db
    .selectFrom('fence')
    .select(['id', 'name', 'fence_type', 'geometry', 'alarm_on_enter', 'alarm_on_exit', 'speed_limit'])
    .where('id', '=', fenceId)
    .where(orgUnder('org_id', orgPath))
    .executeTakeFirst();
  if (!f) throw invalid([refNotFound('fenceId', LABELS)]);
  return action === 'delete' ? deleteAreaMessage(f) : setAreaMessage(f);
}
