/**
 * Invalid input answers 400 (SPEC §8), whichever layer finds it: 406 is for business rules only.
 * The multipart parser fails without a status on a form cut short (a 500 before) and rates some
 * malformed forms 406: both are the caller's input, answered 400 with the localised message.
 */
import crypto from 'node:crypto';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';

const IMPORTS = ['/api/vehicle/vehicleBrand/importValidate', '/api/vehicle/vehicleBrand/import'];

describe.each(BACKENDS)('validation failures answer 400 on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const post = async (url: string, payload: Buffer, boundary: string, lang = 'zh-CN') => {
    const res = await s.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${admin}`, 'accept-language': lang },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) as { success: boolean; message: string; code: string } };
  };

  it.each(IMPORTS)('%s: a form cut short is a 400, not a server fault', async (url) => {
    const boundary = `b${crypto.randomBytes(6).toString('hex')}`;
    const cut = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rows.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nPK\u0003\u0004`,
    );
    const r = await post(url, cut, boundary);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: 'upload.incomplete', message: '上传的文件不完整，请重新上传' });
    expect((await post(url, cut, boundary, 'en-US')).body.message).toBe('The upload is incomplete; please upload the file again');
  });

  it('the business rules keep their 406 (a duplicate brand)', async () => {
    const name = `品牌${crypto.randomBytes(3).toString('hex')}`;
    expect((await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name })).status).toBe(201);
    const again = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name });
    expect(again.status).toBe(406);
  });
});
