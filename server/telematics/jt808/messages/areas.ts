/**
 * Terminal-side areas and routes (§8.32–8.40):
 *   0x8600 circles   action BYTE (0 replace, 1 append, 2 modify), count BYTE, {id DWORD, attributes WORD,
 *                    centre lat DWORD, lon DWORD, radius DWORD m, [time], [speed]}×count
 *   0x8602 rectangles action, count, {id, attributes, top-left lat, lon, bottom-right lat, lon, [time], [speed]}×count
 *   0x8604 polygon   id, attributes, [time], [speed], vertex count WORD, {lat, lon}×count
 *   0x8606 route     id, attributes WORD, [time], point count WORD, {point id DWORD, section id DWORD, lat, lon,
 *                    width BYTE m, section attributes BYTE, [too long WORD s, too short WORD s], [speed]}×count
 *   0x8601/0x8603/0x8605/0x8607 delete: count BYTE (0: all), id DWORD×count
 *   0x8608 (2019) query: kind BYTE (1 circle, 2 rectangle, 3 polygon, 4 route), count DWORD, id DWORD×count
 *   0x0608 (2019) answer: kind BYTE, count DWORD, the areas in their setting layout (kept as hex)
 * [time] is begin BCD[6], end BCD[6] when attribute bit 0 is set (kept as the 12 digits: 2019 allows
 * zero date digits for a daily window); [speed] is max speed WORD km/h, duration BYTE s when bit 1
 * is set, and in 2019 a night max speed WORD after it (for a polygon after the vertices, for a
 * route point after its speed). 2019 ends every area and route with its name (WORD length + GBK).
 * Attribute bits: 0 by time, 1 speed limit, 2/3 alarm to driver/platform on entry, 4/5 on exit,
 * 6 south, 7 west, 8 no door opening, 14 radio off inside, 15 detailed GNSS inside.
 * Coordinates are degrees (DWORD 1e-6, sign from bits 6/7, left to the reader).
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { Jt808DecodeError, Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';
import { putBcd, putGbk16, putHex } from './write';

export const AREA_BY_TIME = 0x0001;
export const AREA_SPEED_LIMIT = 0x0002;
export const SECTION_DRIVING_TIME = 0x01;
export const SECTION_SPEED_LIMIT = 0x02;

export interface AreaRules {
  /** 12 BCD digits YYMMDDhhmmss. */
  begin?: string;
  end?: string;
  maxSpeed?: number;
  overspeedSeconds?: number;
  /** 2019. */
  nightMaxSpeed?: number;
}

export interface Point {
  latitude: number;
  longitude: number;
}

export interface CircleArea extends AreaRules {
  id: number;
  attributes: number;
  centre: Point;
  radius: number;
  /** 2019. */
  name?: string;
}

export interface RectangleArea extends AreaRules {
  id: number;
  attributes: number;
  topLeft: Point;
  bottomRight: Point;
  name?: string;
}

export interface PolygonArea extends AreaRules {
  id: number;
  attributes: number;
  vertices: Point[];
  name?: string;
}

export interface RouteSection {
  pointId: number;
  sectionId: number;
  point: Point;
  width: number;
  attributes: number;
  tooLongSeconds?: number;
  tooShortSeconds?: number;
  maxSpeed?: number;
  overspeedSeconds?: number;
  nightMaxSpeed?: number;
}

export interface Route {
  id: number;
  attributes: number;
  begin?: string;
  end?: string;
  points: RouteSection[];
  name?: string;
}

export interface CircleAreasBody {
  action: number;
  areas: CircleArea[];
}

export interface RectangleAreasBody {
  action: number;
  areas: RectangleArea[];
}

export interface DeleteAreasBody {
  /** Empty: every area (or route) of the kind. */
  ids: number[];
}

export interface AreaQueryBody {
  kind: number;
  ids: number[];
}

export interface AreaQueryResponseBody {
  kind: number;
  count: number;
  dataHex: string;
}

function readPoint(r: BodyReader, what: string): Point {
  return { latitude: r.u32(`${what} latitude`) / 1e6, longitude: r.u32(`${what} longitude`) / 1e6 };
}

function writePoint(w: ByteWriter, pt: Point): void {
  w.u32(Math.round(Math.abs(pt.latitude) * 1e6)).u32(Math.round(Math.abs(pt.longitude) * 1e6));
}

function readTime(r: BodyReader, attributes: number, into: AreaRules | Route): void {
  if (attributes & AREA_BY_TIME) {
    into.begin = r.bcd(6, 'begin');
    into.end = r.bcd(6, 'end');
  }
}

function writeTime(w: ByteWriter, attributes: number, from: AreaRules | Route): void {
  if (!(attributes & AREA_BY_TIME)) return;
  putBcd(w, from.begin ?? '000000000000', 6);
  putBcd(w, from.end ?? '000000000000', 6);
}

function readSpeed(r: BodyReader, attributes: number, into: AreaRules): void {
  if (!(attributes & AREA_SPEED_LIMIT)) return;
  into.maxSpeed = r.u16('maxSpeed');
  into.overspeedSeconds = r.u8('overspeedSeconds');
}

function writeSpeed(w: ByteWriter, attributes: number, from: AreaRules): void {
  if (attributes & AREA_SPEED_LIMIT) w.u16(from.maxSpeed ?? 0).u8(from.overspeedSeconds ?? 0);
}

function readNight(r: BodyReader, attributes: number, version: Jt808Version, into: AreaRules): void {
  if (version === 2019 && attributes & AREA_SPEED_LIMIT) into.nightMaxSpeed = r.u16('nightMaxSpeed');
}

function writeNight(w: ByteWriter, attributes: number, version: Jt808Version, from: AreaRules): void {
  if (version === 2019 && attributes & AREA_SPEED_LIMIT) w.u16(from.nightMaxSpeed ?? 0);
}

function readName(r: BodyReader, version: Jt808Version): { name?: string } {
  return version === 2019 ? { name: r.gbk16('name') } : {};
}

function writeName(w: ByteWriter, version: Jt808Version, name: string | undefined): void {
  if (version === 2019) putGbk16(w, name ?? '', 'name');
}

function count8(n: number, what: string): number {
  if (n > 0xff) throw new Jt808EncodeError('TOO_LONG', `${what}: ${n} items > 255`);
  return n;
}

export function decodeCircleAreas(p: Buffer, start: number, end: number, version: Jt808Version): CircleAreasBody {
  const r = new BodyReader(p, start, end, '0x8600');
  const action = r.u8('action');
  const count = r.u8('count');
  const areas: CircleArea[] = [];
  for (let i = 0; i < count; i++) {
    const id = r.u32('id');
    const attributes = r.u16('attributes');
    const area: CircleArea = { id, attributes, centre: readPoint(r, 'centre'), radius: r.u32('radius') };
    readTime(r, attributes, area);
    readSpeed(r, attributes, area);
    readNight(r, attributes, version, area);
    areas.push(Object.assign(area, readName(r, version)));
  }
  r.done();
  return { action, areas };
}

export function encodeCircleAreas(b: CircleAreasBody, version: Jt808Version): Buffer {
  const w = new ByteWriter(64).u8(b.action).u8(count8(b.areas.length, '0x8600'));
  for (const a of b.areas) {
    w.u32(a.id).u16(a.attributes);
    writePoint(w, a.centre);
    w.u32(a.radius);
    writeTime(w, a.attributes, a);
    writeSpeed(w, a.attributes, a);
    writeNight(w, a.attributes, version, a);
    writeName(w, version, a.name);
  }
  return w.finish();
}

export function decodeRectangleAreas(p: Buffer, start: number, end: number, version: Jt808Version): RectangleAreasBody {
  const r = new BodyReader(p, start, end, '0x8602');
  const action = r.u8('action');
  const count = r.u8('count');
  const areas: RectangleArea[] = [];
  for (let i = 0; i < count; i++) {
    const id = r.u32('id');
    const attributes = r.u16('attributes');
    const area: RectangleArea = { id, attributes, topLeft: readPoint(r, 'top-left'), bottomRight: readPoint(r, 'bottom-right') };
    readTime(r, attributes, area);
    readSpeed(r, attributes, area);
    readNight(r, attributes, version, area);
    areas.push(Object.assign(area, readName(r, version)));
  }
  r.done();
  return { action, areas };
}

export function encodeRectangleAreas(b: RectangleAreasBody, version: Jt808Version): Buffer {
  const w = new ByteWriter(64).u8(b.action).u8(count8(b.areas.length, '0x8602'));
  for (const a of b.areas) {
    w.u32(a.id).u16(a.attributes);
    writePoint(w, a.topLeft);
    writePoint(w, a.bottomRight);
    writeTime(w, a.attributes, a);
    writeSpeed(w, a.attributes, a);
    writeNight(w, a.attributes, version, a);
    writeName(w, version, a.name);
  }
  return w.finish();
}

export function decodePolygonArea(p: Buffer, start: number, end: number, version: Jt808Version): PolygonArea {
  const r = new BodyReader(p, start, end, '0x8604');
  const id = r.u32('id');
  const attributes = r.u16('attributes');
  const area: PolygonArea = { id, attributes, vertices: [] };
  readTime(r, attributes, area);
  readSpeed(r, attributes, area);
  const count = r.u16('vertex count');
  for (let i = 0; i < count; i++) area.vertices.push(readPoint(r, `vertex ${i + 1}`));
  readNight(r, attributes, version, area);
  Object.assign(area, readName(r, version));
  r.done();
  return area;
}

export function encodePolygonArea(a: PolygonArea, version: Jt808Version): Buffer {
  const w = new ByteWriter(64).u32(a.id).u16(a.attributes);
  writeTime(w, a.attributes, a);
  writeSpeed(w, a.attributes, a);
  w.u16(a.vertices.length);
  for (const v of a.vertices) writePoint(w, v);
  writeNight(w, a.attributes, version, a);
  writeName(w, version, a.name);
  return w.finish();
}

export function decodeRoute(p: Buffer, start: number, end: number, version: Jt808Version): Route {
  const r = new BodyReader(p, start, end, '0x8606');
  const id = r.u32('id');
  const attributes = r.u16('attributes');
  const route: Route = { id, attributes, points: [] };
  readTime(r, attributes, route);
  const count = r.u16('point count');
  for (let i = 0; i < count; i++) {
    const section: RouteSection = {
      pointId: r.u32('point id'),
      sectionId: r.u32('section id'),
      point: readPoint(r, `point ${i + 1}`),
      width: r.u8('width'),
      attributes: r.u8('section attributes'),
    };
    if (section.attributes & SECTION_DRIVING_TIME) {
      section.tooLongSeconds = r.u16('tooLongSeconds');
      section.tooShortSeconds = r.u16('tooShortSeconds');
    }
    // Section attribute bit 1 is the speed limit, as area attribute bit 1 is.
    readSpeed(r, section.attributes, section);
    readNight(r, section.attributes, version, section);
    route.points.push(section);
  }
  Object.assign(route, readName(r, version));
  r.done();
  return route;
}

export function encodeRoute(b: Route, version: Jt808Version): Buffer {
  const w = new ByteWriter(128).u32(b.id).u16(b.attributes);
  writeTime(w, b.attributes, b);
  w.u16(b.points.length);
  for (const s of b.points) {
    w.u32(s.pointId).u32(s.sectionId);
    writePoint(w, s.point);
    w.u8(s.width).u8(s.attributes);
    if (s.attributes & SECTION_DRIVING_TIME) w.u16(s.tooLongSeconds ?? 0).u16(s.tooShortSeconds ?? 0);
    writeSpeed(w, s.attributes, s);
    writeNight(w, s.attributes, version, s);
  }
  writeName(w, version, b.name);
  return w.finish();
}

export function decodeDeleteAreas(p: Buffer, start: number, end: number, what: string): DeleteAreasBody {
  const r = new BodyReader(p, start, end, what);
  const count = r.u8('count');
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(r.u32(`id ${i + 1}`));
  r.done();
  return { ids };
}

export function encodeDeleteAreas(b: DeleteAreasBody): Buffer {
  const w = new ByteWriter(1 + 4 * b.ids.length).u8(count8(b.ids.length, 'delete areas'));
  for (const id of b.ids) w.u32(id);
  return w.finish();
}

export function decodeAreaQuery(p: Buffer, start: number, end: number): AreaQueryBody {
  const r = new BodyReader(p, start, end, '0x8608');
  const kind = r.u8('kind');
  const count = r.u32('count');
  // Checked against the bytes before anything is allocated.
  if (count * 4 !== r.remaining) throw new Jt808DecodeError('BAD_BODY', `0x8608: ${r.remaining} bytes for ${count} ids`);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(r.u32(`id ${i + 1}`));
  r.done();
  return { kind, ids };
}

export function encodeAreaQuery(b: AreaQueryBody): Buffer {
  const w = new ByteWriter(5 + 4 * b.ids.length).u8(b.kind).u32(b.ids.length);
  for (const id of b.ids) w.u32(id);
  return w.finish();
}

export function decodeAreaQueryResponse(p: Buffer, start: number, end: number): AreaQueryResponseBody {
  const r = new BodyReader(p, start, end, '0x0608');
  return { kind: r.u8('kind'), count: r.u32('count'), dataHex: r.restHex() };
}

export function encodeAreaQueryResponse(b: AreaQueryResponseBody): Buffer {
  return putHex(new ByteWriter(16).u8(b.kind).u32(b.count), b.dataHex, 'dataHex').finish();
}
