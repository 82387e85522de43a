import { sql } from 'kysely';
import { multipartFile } from '../../helpers/multipart';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

const XML = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<config model="J6P"><pid id="0x0536" name="转速" scale="1"/><pid id="0x052D" name="水温" offset="-40"/></config>\n',
);
const BILLION_LAUGHS = Buffer.from(
  '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">\n <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n<lolz>&lol3;</lolz>\n',
);
const XXE = Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE config [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<config>&xxe;</config>\n');

/** The configuration parse file's XML: upload (checked, stamped), download, scoped and guarded. */
describe.each(BACKENDS)('configuration parse file XML on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  let n = 0;
  const createFile = async (token = admin) => {
    const r = await s.call(token, 'POST', '/api/vehicle/configParseFile', { name: `解析文件${++n}` });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const upload = async (token: string | null, id: number, name: string, data: Buffer, lang = 'zh-CN') => {
    const { payload, headers } = multipartFile(name, data, 'text/xml');
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/vehicle/configParseFile/${id}/file`,
      payload,
      headers: { ...headers, 'accept-language': lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const download = (token: string, id: number) =>
    s.app.inject({ method: 'GET', url: `/api/vehicle/configParseFile/${id}/file`, headers: { authorization: `Bearer ${token}` } });

  it('keeps an uploaded XML, stamps the record and gives the file back', async () => {
    const id = await createFile();
    const before = await s.call(admin, 'GET', `/api/vehicle/configParseFile/${id}`);
    expect(before.body.fileName).toBeUndefined();
    expect((await download(admin, id)).statusCode).toBe(404);

    const r = await upload(admin, id, 'C:\\fakepath\\J6P 解析.xml', XML);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, fileName: 'J6P 解析.xml', fileSize: XML.length, latestOperator: '系统管理员' });
    expect(Date.now() - Date.parse(r.body.latestOperatedAt)).toBeLessThan(60_000);
    const got = await download(admin, id);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toContain('application/xml');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="J6P __.xml"; filename*=UTF-8''${encodeURIComponent('J6P 解析.xml')}`,
    );
    expect(got.rawPayload.equals(XML)).toBe(true);

    // A new upload replaces the file; GBK files are read in the encoding they declare.
    const gbk = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="GBK"?><config name="'),
      Buffer.from([0xd7, 0xaa, 0xcb, 0xd9]),
      Buffer.from('"/>'),
    ]);
    const again = await upload(admin, id, 'gbk.XML', gbk);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ fileName: 'gbk.XML', fileSize: gbk.length });
    expect((await download(admin, id)).rawPayload.equals(gbk)).toBe(true);
    // The file lives with its record, in the database (no folder a web server could serve).
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM config_parse_content WHERE file_id = ${id}`.execute(s.database.db);
    expect(rows.rows[0].n).toBe(1);
    // Deleting the record deletes its file.
    expect((await s.call(admin, 'DELETE', `/api/vehicle/configParseFile/${id}`)).status).toBe(204);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM config_parse_content WHERE file_id = ${id}`.execute(s.database.db);
    expect(left.rows[0].n).toBe(0);
  });

  it('refuses a missing file, another type, a large file and anything but plain well-formed XML, with localised 400s', async () => {
    const id = await createFile();
    const cases: Array<[string, Buffer, number, string, string]> = [
      ['config.txt', XML, 400, '只能上传 xml 文件', 'Only xml files can be uploaded'],
      ['config', XML, 400, '只能上传 xml 文件', 'Only xml files can be uploaded'],
      [
        'big.xml',
        Buffer.concat([Buffer.from('<a>'), Buffer.alloc(1024 * 1024, 0x41), Buffer.from('</a>')]),
        413,
        '文件不能超过1 MB',
        'The file must not exceed 1 MB',
      ],
      ['laughs.xml', BILLION_LAUGHS, 400, 'XML 文件不能包含 DOCTYPE 或实体声明', 'must not contain a DOCTYPE'],
      ['xxe.xml', XXE, 400, 'XML 文件不能包含 DOCTYPE 或实体声明', 'must not contain a DOCTYPE'],
      [
        'dtd.xml',
        Buffer.from('<!DOCTYPE config SYSTEM "http://example.com/config.dtd"><config/>'),
        400,
        'XML 文件不能包含 DOCTYPE 或实体声明',
        'must not contain a DOCTYPE',
      ],
      ['open.xml', Buffer.from('<config><pid></config>'), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['two.xml', Buffer.from('<a/><b/>'), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['text.xml', Buffer.from('just text'), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['empty.xml', Buffer.alloc(0), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['binary.xml', Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['enc.xml', Buffer.from('<?xml version="1.0" encoding="EBCDIC"?><a/>'), 400, 'XML 文件格式不正确', 'not well-formed'],
      ['deep.xml', Buffer.from('<a>'.repeat(200) + '</a>'.repeat(200)), 400, 'XML 文件格式不正确', 'not well-formed'],
    ];
    for (const [name, data, status, zh, en] of cases) {
      const r = await upload(admin, id, name, data);
      expect({ name, status: r.status, message: r.body.message }).toEqual({ name, status, message: zh });
      const e = await upload(admin, id, name, data, 'en-US');
      expect(e.body.message).toContain(en);
    }
    // No file part at all: "upload file" (SPEC.md §5).
    const none = await s.call(admin, 'POST', `/api/vehicle/configParseFile/${id}/file`, { name: 'x' });
    expect(none).toMatchObject({ status: 400, body: { message: '请上传文件' } });
    const noPart = await s.app.inject({
      method: 'POST',
      url: `/api/vehicle/configParseFile/${id}/file`,
      payload: '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: `Bearer ${admin}` },
    });
    expect(noPart.statusCode).toBe(400);
    expect(JSON.parse(noPart.body).message).toBe('请上传文件');
    // Nothing was kept or stamped by the refusals.
    const row = await s.call(admin, 'GET', `/api/vehicle/configParseFile/${id}`);
    expect(row.body.fileName).toBeUndefined();
    expect((await download(admin, id)).statusCode).toBe(404);
    expect((await upload(admin, 0, 'a.xml', XML)).status).toBe(400);
  });

  it('keeps files inside the organisation subtree and uploads behind configParseFile-edit', async () => {
    const hdEditor = await s.memberToken('HD', 'orgUser', ['configParseFile-add', 'configParseFile-edit']);
    const id = await createFile(hdEditor);
    expect((await upload(hdEditor, id, 'a.xml', XML)).status).toBe(200);
    const hnEditor = await s.memberToken('HN', 'orgUser', ['configParseFile-edit']);
    expect((await upload(hnEditor, id, 'b.xml', XML)).status).toBe(404);
    expect((await download(hnEditor, id)).statusCode).toBe(404);
    // Reading needs no code inside the subtree; uploading does.
    const hdViewer = await s.memberToken('HD-SH', 'orgUser', []);
    const teamFile = await createFile(await s.memberToken('HD-SH', 'orgUser', ['configParseFile-add', 'configParseFile-edit']));
    expect((await upload(admin, teamFile, 'team.xml', XML)).status).toBe(200);
    expect((await download(hdViewer, teamFile)).statusCode).toBe(200);
    expect((await download(hdViewer, id)).statusCode).toBe(404); // HD's own file lies above the team
    expect((await upload(hdViewer, teamFile, 'c.xml', XML)).status).toBe(403);
    expect((await upload(null, teamFile, 'c.xml', XML)).status).toBe(401);
  });
});
