/**
 * Events, questions and information on demand (2013; dropped from the 2019 edition, still sent
 * by terminals in the field):
 *   0x8301 event setting: action BYTE (0 delete all, 1 replace, 2 append, 3 modify, 4 delete these),
 *          count BYTE, {event id BYTE, (BYTE length + GBK) text}×count
 *   0x0301 event report: event id BYTE
 *   0x8302 question: flag BYTE (bit 0 emergency, 3 TTS, 4 screen), (BYTE length + GBK) question,
 *          {answer id BYTE, (WORD length + GBK) answer}… to the end
 *   0x0302 answer: serial WORD of the question, answer id BYTE
 *   0x8303 information menu: action BYTE (0 delete all, 1 replace, 2 append, 3 modify), count BYTE,
 *          {type BYTE, (WORD length + GBK) name}×count
 *   0x0303 demand or cancel: type BYTE, on BYTE (1 demand, 0 cancel)
 *   0x8304 information service: type BYTE, (WORD length + GBK) content
 */

import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';
import { putGbk16, putGbk8 } from './write';

function countOf(n: number, what: string): number {
  if (n > 0xff) throw new Jt808EncodeError('TOO_LONG', `${what}: ${n} items > 255`);
  return n;
}

export interface EventSettingBody {
  action: number;
  events: Array<{ id: number; text: string }>;
}

export function decodeEventSetting(p: Buffer, start: number, end: number): EventSettingBody {
  const r = new BodyReader(p, start, end, '0x8301');
  const action = r.u8('action');
  // "Delete all" may come without a count.
  const count = action === 0 && r.remaining === 0 ? 0 : r.u8('count');
  const events: EventSettingBody['events'] = [];
  for (let i = 0; i < count; i++) events.push({ id: r.u8('event id'), text: r.gbk8('event text') });
  r.done();
  return { action, events };
}

export function encodeEventSetting(b: EventSettingBody): Buffer {
  const w = new ByteWriter(32).u8(b.action).u8(countOf(b.events.length, '0x8301'));
  for (const e of b.events) putGbk8(w.u8(e.id), e.text, 'event text');
  return w.finish();
}

export interface EventReportBody {
  eventId: number;
}

export function decodeEventReport(p: Buffer, start: number, end: number): EventReportBody {
  const r = new BodyReader(p, start, end, '0x0301');
  const body = { eventId: r.u8('eventId') };
  r.done();
  return body;
}

export function encodeEventReport(b: EventReportBody): Buffer {
  return new ByteWriter(1).u8(b.eventId).finish();
}

export interface QuestionBody {
  flag: number;
  question: string;
  answers: Array<{ id: number; text: string }>;
}

export function decodeQuestion(p: Buffer, start: number, end: number): QuestionBody {
  const r = new BodyReader(p, start, end, '0x8302');
  const flag = r.u8('flag');
  const question = r.gbk8('question');
  const answers: QuestionBody['answers'] = [];
  while (r.remaining > 0) answers.push({ id: r.u8('answer id'), text: r.gbk16('answer') });
  return { flag, question, answers };
}

export function encodeQuestion(b: QuestionBody): Buffer {
  const w = putGbk8(new ByteWriter(64).u8(b.flag), b.question, 'question');
  for (const a of b.answers) putGbk16(w.u8(a.id), a.text, 'answer');
  return w.finish();
}

export interface QuestionAnswerBody {
  replySerial: number;
  answerId: number;
}

export function decodeQuestionAnswer(p: Buffer, start: number, end: number): QuestionAnswerBody {
  const r = new BodyReader(p, start, end, '0x0302');
  const body = { replySerial: r.u16('replySerial'), answerId: r.u8('answerId') };
  r.done();
  return body;
}

export function encodeQuestionAnswer(b: QuestionAnswerBody): Buffer {
  return new ByteWriter(3).u16(b.replySerial).u8(b.answerId).finish();
}

export interface InfoMenuBody {
  action: number;
  items: Array<{ type: number; name: string }>;
}

export function decodeInfoMenu(p: Buffer, start: number, end: number): InfoMenuBody {
  const r = new BodyReader(p, start, end, '0x8303');
  const action = r.u8('action');
  const count = action === 0 && r.remaining === 0 ? 0 : r.u8('count');
  const items: InfoMenuBody['items'] = [];
  for (let i = 0; i < count; i++) items.push({ type: r.u8('info type'), name: r.gbk16('info name') });
  r.done();
  return { action, items };
}

export function encodeInfoMenu(b: InfoMenuBody): Buffer {
  const w = new ByteWriter(32).u8(b.action).u8(countOf(b.items.length, '0x8303'));
  for (const item of b.items) putGbk16(w.u8(item.type), item.name, 'info name');
  return w.finish();
}

export interface InfoDemandBody {
  type: number;
  /** 1 demand, 0 cancel. */
  on: number;
}

export function decodeInfoDemand(p: Buffer, start: number, end: number): InfoDemandBody {
  const r = new BodyReader(p, start, end, '0x0303');
  const body = { type: r.u8('type'), on: r.u8('on') };
  r.done();
  return body;
}

export function encodeInfoDemand(b: InfoDemandBody): Buffer {
  return new ByteWriter(2).u8(b.type).u8(b.on).finish();
}

export interface InfoServiceBody {
  type: number;
  content: string;
}

export function decodeInfoService(p: Buffer, start: number, end: number): InfoServiceBody {
  const r = new BodyReader(p, start, end, '0x8304');
  const body = { type: r.u8('type'), content: r.gbk16('content') };
  r.done();
  return body;
}

export function encodeInfoService(b: InfoServiceBody): Buffer {
  return putGbk16(new ByteWriter(32).u8(b.type), b.content, 'content').finish();
}
