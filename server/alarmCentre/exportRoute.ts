/**
 * `POST /api/vehicle/alarm/export`: the alarm list of the same criteria and order as xlsx, in the
 * caller's language (every matching row, up to MAX_EXPORT), written page by page.
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { translator } from '../../schemas/kit/catalogue';
import { attachment, tableWorkbook, XLSX_TYPE } from '../platform/crud/sheet/workbook';
import type { DB } from '../platform/db/tables';
import { progressHeaders } from '../platform/progress/track';
import { addRows, requestSheetContext, type SheetMaker } from '../reports/reportSheet';
import { queryAlarms, type AlarmQuery, type AlarmRow, type Body } from './query';

export const MAX_EXPORT = 100_000;
const PAGE = 2_000;

/** The alarm list of a list body's criteria and order as xlsx: what the export answers and a scheduled report attaches. */
export const alarmSheet =
  (db: Kysely<DB>, toQuery: (b: Body | null) => AlarmQuery): SheetMaker =>
  async ({ caller, language, progress }, body) => {
    const t = translator(language);
    const q = toQuery(body as Body | null);
    const cols: Array<[string, (a: AlarmRow) => unknown]> = [
      ['alarm.fields.begin', (a) => a.begin],
      ['alarm.fields.end', (a) => a.end ?? ''],
      ['alarm.fields.vehicleId', (a) => a.licence],
      ['alarm.fields.type', (a) => t(`alarm.types.${a.type}`)],
      ['alarm.fields.category', (a) => t(`alarm.categories.${a.category}`)],
      ['console.alarm.level', (a) => t(`alarm.levels.${a.level}`)],
      ['console.alarm.value', (a) => a.value ?? ''],
      ['console.alarm.place', (a) => (a.latitude === null ? '' : `${a.latitude}, ${a.longitude}`)],
      ['alarm.fields.handled', (a) => (a.handled ? t('console.alarm.handledYes') : t('console.alarm.handledNo'))],
      ['alarm.fields.note', (a) => a.note ?? ''],
    ];
    const title = t('console.alarm.all');
    const sheet = tableWorkbook(
      title,
      cols.map(([k]) => t(k)),
    );
    for (let pageIndex = 1, written = 0; written < MAX_EXPORT; pageIndex++) {
      const page = await queryAlarms(db, caller, { ...q, pageIndex, pageSize: PAGE });
      if (pageIndex === 1) progress.phase('write', Math.min(MAX_EXPORT, page.total));
      await addRows(progress, page.data, written, (a) => sheet.addRow(cols.map(([, v]) => v(a))));
      written += page.data.length;
      if (page.data.length < PAGE) break;
    }
    return { title, buffer: await sheet.buffer() };
  };

export function registerAlarmExport(
  app: FastifyInstance,
  db: Kysely<DB>,
  body: Record<string, unknown>,
  toQuery: (b: Body | null) => AlarmQuery,
): void {
  const make = alarmSheet(db, toQuery);
  app.post(
    '/api/vehicle/alarm/export',
    {
      config: { permission: NONE, labels: 'alarm.fields' },
      schema: { tags: ['alarm'], summary: 'the alarm list of these criteria as xlsx', body, headers: progressHeaders },
    },
    async (req, reply) => {
      const { title, buffer } = await make(requestSheetContext(req, reply), req.body);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(title)).send(buffer);
    },
  );
}
