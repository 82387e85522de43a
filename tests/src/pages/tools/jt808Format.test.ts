import { catalogues } from '../../../../schemas/kit/catalogue';
import { LANGUAGES, type MessageParams } from '../../../../schemas/kit/i18n';
import { ALARM_BITS, STATUS_BITS } from '../../../../server/telematics/jt808/messages/locationFlags';
import {
  ALARM_NAMES,
  bodyNodes,
  ERROR_CODES,
  failureText,
  FIELD_NAMES,
  formatDeviceTime,
  formatOffset,
  frameLines,
  headerRows,
  jt808Key,
  LOAD_STATES,
  MESSAGE_IDS,
  STATUS_NAMES,
  summarize,
  TZ_OFFSETS,
  type DecodedFrame,
  type FrameResult,
  type ViewNode,
} from '../../../../src/pages/tools/jt808Format';

/** A translator over the real catalogue that fails the test on a missing key. */
const tr = (lang: (typeof LANGUAGES)[number]) => (key: string, params?: MessageParams) => {
  const m = catalogues[lang][key];
  if (m === undefined) throw new Error(`missing ${lang} message ${key}`);
  return m.replace(/\{(\w+)\}/g, (_, n: string) => String(params?.[n] ?? `{${n}}`));
};
const t = tr('zh-CN');
const ctx = { t, tzOffsetMinutes: 480 };

// The server decoder's answers for frames of the JT/T 808 test vectors (npm run jt808 -- decode …).
const SOS_WEST: DecodedFrame = JSON.parse(
  '{"msgId":"0x0200","version":2013,"phone":"94027587492","serial":10,"body":{"alarm":{"raw":1,"active":["sos"]},"status":{"raw":10,"accOn":false,"fixed":true,"south":false,"west":true,"outOfService":false,"coordsEncrypted":false,"forwardCollisionWarning":false,"laneDepartureWarning":false,"load":"empty","fuelCut":false,"circuitCut":false,"doorLocked":false,"frontDoorOpen":false,"middleDoorOpen":false,"rearDoorOpen":false,"driverDoorOpen":false,"customDoorOpen":false,"gps":false,"beidou":false,"glonass":false,"galileo":false,"moving":false},"latitude":50.871735,"longitude":-1.255923,"altitude":0,"speed":2,"direction":0,"time":"2013-04-12T08:49:52.000Z","extras":{"mileageKm":1.8,"unknown":[{"id":54,"hex":"0002341502cb0c20085c"}]}}}',
);
const BATCH: DecodedFrame = {
  msgId: '0x0704',
  version: 2013,
  phone: '13567777777',
  serial: 2037,
  body: {
    count: 1,
    type: 1,
    blindArea: true,
    items: [
      {
        ...(SOS_WEST.body as object),
        alarm: { raw: 0, active: [] },
        status: { ...(SOS_WEST.body as { status: object }).status, raw: 0x40003, accOn: true, gps: true, load: 'full' },
      },
    ],
  },
};
const OBD: DecodedFrame = {
  msgId: '0x0900',
  version: 2019,
  protocolVersion: 1,
  phone: '4e5de66fba22',
  serial: 196,
  packet: { count: 3, index: 2 },
  body: {
    type: 240,
    typeName: 'userDefined',
    content: '22',
    obdRecord: {
      time: '2022-04-27T22:10:09.000Z',
      timestamp: 1651097409000,
      subtype: 2,
      dtcCodes: ['P0301', 'U0100'],
      values: {},
      position: { status: { raw: 786435, accOn: true, fixed: true, load: 'empty', beidou: true }, latitude: 23.1, longitude: 114.4 },
    },
  },
};
const BAD: FrameResult = { error: 'BAD_CHECKSUM: computed 0xf0, frame has 0xd0', code: 'BAD_CHECKSUM' };

const find = (nodes: ViewNode[], label: string): ViewNode => {
  const n = nodes.find((x) => x.label === label);
  if (!n) throw new Error(`no row ${label} in ${nodes.map((x) => x.label).join(', ')}`);
  return n;
};

describe('JT/T 808 page formatting', () => {
  it('names the message and lays out the header', () => {
    expect(headerRows(SOS_WEST, ctx)).toEqual([
      { label: '消息 ID', value: '0x0200 位置信息汇报' },
      { label: '协议版本', value: '2013' },
      { label: '终端手机号', value: '94027587492' },
      { label: '消息流水号', value: '10' },
    ]);
    const rows = headerRows(OBD, ctx);
    expect(rows).toContainEqual({ label: '协议版本', value: '2019 (1)' });
    expect(rows).toContainEqual({ label: '分包', value: '第 2 包，共 3 包' });
    expect(headerRows({ ...SOS_WEST, msgId: '0x0F00', opaque: 'unknown', body: { hex: 'ab' } }, ctx)[0]).toEqual({
      label: '消息 ID',
      value: '0x0F00',
    });
  });

  it('shows a location with alarm and status bits by name, position, speed and device time', () => {
    const nodes = bodyNodes(SOS_WEST, ctx);
    expect(nodes.slice(0, 8)).toEqual([
      { kind: 'flags', label: '报警标志', raw: '0x00000001', names: ['紧急报警'] },
      { kind: 'flags', label: '状态', raw: '0x0000000A', names: ['ACC 关', '已定位', '西经'] },
      { kind: 'value', label: '纬度', value: '50.871735°' },
      { kind: 'value', label: '经度', value: '-1.255923°' },
      { kind: 'value', label: '高程', value: '0 m' },
      { kind: 'value', label: '速度', value: '2 km/h' },
      { kind: 'value', label: '方向', value: '0°' },
      { kind: 'value', label: '时间', value: '2013-04-12 16:49:52 (UTC+08:00)' },
    ]);
    const extras = find(nodes, '附加信息');
    expect(extras).toMatchObject({ kind: 'group' });
    const children = (extras as Extract<ViewNode, { kind: 'group' }>).children;
    expect(find(children, '里程（km）')).toEqual({ kind: 'value', label: '里程（km）', value: '1.8' });
    expect(find(children, '未识别的附加项')).toMatchObject({
      kind: 'group',
      children: [
        {
          kind: 'group',
          label: '#1',
          children: [
            { label: 'ID', value: '54' },
            { label: '十六进制', value: '0002341502cb0c20085c' },
          ],
        },
      ],
    });
    // The device's clock is the one chosen on the page.
    expect(find(bodyNodes(SOS_WEST, { t, tzOffsetMinutes: 0 }), '时间')).toMatchObject({ value: '2013-04-12 08:49:52 (UTC+00:00)' });
  });

  it('reads locations nested in other bodies, and status words anywhere', () => {
    const nodes = bodyNodes(BATCH, ctx);
    expect(find(nodes, '盲区补报')).toEqual({ kind: 'value', label: '盲区补报', value: '是' });
    const item = (find(nodes, '位置数据项') as Extract<ViewNode, { kind: 'group' }>).children[0] as Extract<ViewNode, { kind: 'group' }>;
    expect(item.label).toBe('#1');
    expect(item.children[0]).toEqual({ kind: 'flags', label: '报警标志', raw: '0x00000000', names: [] });
    expect(item.children[1]).toEqual({
      kind: 'flags',
      label: '状态',
      raw: '0x00040003',
      names: ['ACC 开', '已定位', '西经', '使用 GPS', '满载'],
    });
    const obd = find(bodyNodes(OBD, ctx), 'OBD 记录') as Extract<ViewNode, { kind: 'group' }>;
    expect(obd.children.map((c) => c.label)).not.toContain('timestamp');
    expect(find(obd.children, '时间')).toMatchObject({ value: '2022-04-28 06:10:09 (UTC+08:00)' });
    expect(find(obd.children, '故障码列表')).toEqual({ kind: 'value', label: '故障码列表', value: 'P0301, U0100' });
    const position = find(obd.children, '位置') as Extract<ViewNode, { kind: 'group' }>;
    expect(find(position.children, '状态')).toEqual({
      kind: 'flags',
      label: '状态',
      raw: '0x000C0003',
      names: ['ACC 开', '已定位', '使用北斗'],
    });
  });

  it('explains a refused frame by its code and keeps the decoder detail', () => {
    expect(failureText(BAD as { error: string; code: string }, t)).toEqual({
      title: '校验码错误',
      detail: 'BAD_CHECKSUM: computed 0xf0, frame has 0xd0',
    });
    expect(failureText({ error: 'boom' }, t).title).toBe('无法解码');
    expect(failureText({ error: 'x', code: 'WHAT' }, tr('en-US')).title).toBe('Cannot be decoded');
    expect(summarize([SOS_WEST, BAD, BATCH])).toEqual({ total: 3, ok: 2, failed: 1 });
  });

  it('counts pasted lines as the server does and formats time zones', () => {
    expect(frameLines('7e00\r\n\n   \n7e01\n')).toEqual(['7e00', '7e01']);
    expect(formatOffset(480)).toBe('UTC+08:00');
    expect(formatOffset(-210)).toBe('UTC-03:30');
    expect(formatOffset(345)).toBe('UTC+05:45');
    expect(TZ_OFFSETS).toContain(480);
    expect(TZ_OFFSETS).toContain(0);
    expect([...TZ_OFFSETS].sort((a, b) => a - b)).toEqual(TZ_OFFSETS);
    expect(formatDeviceTime('not a time', 480)).toBe('not a time');
    expect(formatDeviceTime('2024-12-31T20:00:00.000Z', 480)).toBe('2025-01-01 04:00:00 (UTC+08:00)');
  });

  it('knows the same bit names as the server decoder, each labelled in every language', () => {
    expect(ALARM_NAMES).toEqual(ALARM_BITS);
    expect([...STATUS_NAMES].sort()).toEqual(Object.keys(STATUS_BITS).sort());
    for (const lang of LANGUAGES) {
      const tl = tr(lang);
      for (const n of ALARM_NAMES) expect(tl(`console.jt808.alarm.${n}`)).not.toBe('');
      for (const n of STATUS_NAMES) expect(tl(`console.jt808.status.${n}`)).not.toBe('');
      for (const n of FIELD_NAMES) expect(tl(`console.jt808.fields.${n}`)).not.toBe('');
      for (const id of MESSAGE_IDS) expect(tl(`console.jt808.messages.${id}`)).not.toBe('');
      for (const c of [...ERROR_CODES, 'other']) expect(tl(jt808Key('errors', c))).not.toBe('');
      for (const l of LOAD_STATES) expect(tl(jt808Key('load', l))).not.toBe('');
      for (const o of ['unknown', 'fragment', 'encrypted']) expect(tl(jt808Key('opaque', o))).not.toBe('');
      for (const s of ['accOff', 'notFixed']) expect(tl(jt808Key('status', s))).not.toBe('');
      // Rendering every fixture in every language needs no key the catalogue lacks.
      for (const f of [SOS_WEST, BATCH, OBD]) {
        headerRows(f, { t: tl, tzOffsetMinutes: 480 });
        bodyNodes(f, { t: tl, tzOffsetMinutes: 480 });
      }
    }
  });
});
