import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localeSources } from '../../../schemas/generated/locales';
import { buildCatalogue, defaultCatalogues } from '../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../schemas/kit/i18n';
import { localePatch, type LocaleSources } from '../../../schemas/kit/localePatch';
import { buildApp } from '../../../server/app';
import { ROOT_ORG } from '../../../server/seed/fixtures';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** Labels and messages analysts edit (issue 17): drafts, publishing all four languages, reset, export. */
describe.each(BACKENDS)('label overrides on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const put = (token: string, locale: string, key: string, value: string, lang = 'en-US') =>
    s.call(token, 'PUT', '/api/vehicle/labels', { locale, key, value }, lang);
  const publish = (token: string, key: string, lang = 'en-US') => s.call(token, 'POST', '/api/vehicle/labels/publish', { key }, lang);
  const reset = (token: string, locale: string, key: string) =>
    s.call(token, 'DELETE', `/api/vehicle/labels/${locale}/${encodeURIComponent(key)}`);
  /** A brand without its required name: the server's 400 in a language. */
  const missingName = async (lang: string) => (await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { manufacturer: 'x' }, lang)).body;
  const all = (value: (l: string) => string) => Object.fromEntries(LANGUAGES.map((l) => [l, value(l)]));
  async function putAll(key: string, texts: Record<string, string>) {
    for (const [l, v] of Object.entries(texts)) expect((await put(admin, l, key, v)).status).toBe(200);
  }

  it('shows a published edit in the 400 messages and the catalogue at once, drafts only after publishing all four languages', async () => {
    const before = await missingName('zh-CN');
    expect(before.message).toBe('品牌名称不能为空');
    const etag0 = (await s.app.inject({ method: 'GET', url: '/api/vehicle/labels/catalogue/zh-CN' })).headers.etag as string;

    // A draft changes nothing users see.
    await put(admin, 'zh-CN', 'validation.required', '请填写{field}');
    expect((await missingName('zh-CN')).message).toBe('品牌名称不能为空');
    // One language of four: publishing is refused, naming the missing ones in the caller's language.
    const early = await publish(admin, 'validation.required');
    expect(early.status).toBe(406);
    expect(early.body.code).toBe('labels.incomplete');
    expect(early.body.message).toBe(
      '"validation.required" can be published only once all four languages are edited; missing: English、Spanish、Japanese',
    );
    expect((await publish(admin, 'validation.required', 'zh-CN')).body.message).toBe(
      '“validation.required”须先完成四种语言才能发布，缺少：英文、西班牙文、日文',
    );

    await putAll('validation.required', {
      'en-US': 'Please fill in {field}',
      'es-ES': 'Rellene {field}',
      'ja-JP': '{field}を入力してください',
    });
    await putAll(
      'entity.vehicleBrand.fields.name',
      all((l) => ({ 'zh-CN': '品牌', 'en-US': 'Make', 'es-ES': 'Marca', 'ja-JP': 'ブランド' })[l]!),
    );
    expect((await publish(admin, 'validation.required')).status).toBe(200);
    expect((await publish(admin, 'entity.vehicleBrand.fields.name')).status).toBe(200);

    // No restart: the next answers use them, in every language.
    expect((await missingName('zh-CN')).message).toBe('请填写品牌');
    expect((await missingName('en-US')).message).toBe('Please fill in Make');
    expect((await missingName('ja-JP')).errors[0]).toEqual({
      field: 'name',
      key: 'validation.required',
      message: 'ブランドを入力してください',
    });
    const cat = await s.app.inject({ method: 'GET', url: '/api/vehicle/labels/catalogue/es-ES' });
    expect(cat.statusCode).toBe(200);
    expect(cat.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(cat.body)['validation.required']).toBe('Rellene {field}');
    expect(JSON.parse(cat.body)['validation.maxLength']).toBe(defaultCatalogues['es-ES']['validation.maxLength']);
    // Cache-busted: a new version has a new ETag, an unchanged one is answered 304.
    expect(cat.headers.etag).not.toBe(etag0);
    expect(
      (
        await s.app.inject({
          method: 'GET',
          url: '/api/vehicle/labels/catalogue/es-ES',
          headers: { 'if-none-match': cat.headers.etag as string },
        })
      ).statusCode,
    ).toBe(304);

    // The overrides, and who did what.
    const list = await s.call(admin, 'GET', '/api/vehicle/labels?locale=zh-CN');
    expect(list.body.map((o: { key: string; published: string; draft: null }) => [o.key, o.published, o.draft])).toEqual([
      ['entity.vehicleBrand.fields.name', '品牌', null],
      ['validation.required', '请填写{field}', null],
    ]);
    const audit = await s.database.db.selectFrom('audit_log').select(['action', 'target']).where('action', 'like', 'label%').execute();
    expect(audit.filter((a) => a.action === 'labelPublish').map((a) => a.target)).toEqual([
      'validation.required',
      'entity.vehicleBrand.fields.name',
    ]);
    expect(audit.filter((a) => a.action === 'labelDraft')).toHaveLength(8);

    // Reset one language: back to the default there, the others keep the edit.
    expect((await reset(admin, 'zh-CN', 'validation.required')).status).toBe(204);
    expect((await missingName('zh-CN')).message).toBe('品牌不能为空');
    expect((await missingName('en-US')).message).toBe('Please fill in Make');
    expect((await reset(admin, 'zh-CN', 'validation.required')).status).toBe(404);
    for (const l of LANGUAGES.filter((x) => x !== 'zh-CN')) expect((await reset(admin, l, 'validation.required')).status).toBe(204);
  });

  it('reaches another server process on the same database without a restart', async () => {
    const other = await buildApp({ database: s.database, secret: 'test-secret', logLevel: 'silent' });
    try {
      const ask = async () =>
        JSON.parse(
          (
            await other.inject({
              method: 'POST',
              url: '/api/vehicle/vehicleBrand',
              headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en-US' },
              payload: {},
            })
          ).body,
        ).message;
      expect(await ask()).toBe('Make is required');
      await putAll(
        'validation.required',
        all((l) => `${l}: {field}?`),
      );
      await publish(admin, 'validation.required');
      const deadline = Date.now() + 10_000;
      while ((await ask()) !== 'en-US: Make?' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await ask()).toBe('en-US: Make?');
      for (const l of LANGUAGES) await reset(admin, l, 'validation.required');
    } finally {
      await other.close();
    }
  });

  it('refuses bad edits with a clear localised error', async () => {
    const missing = await put(admin, 'en-US', 'validation.maxLength', '{field} is too long', 'en-US');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({
      field: 'value',
      key: 'labels.placeholderMissing',
      message: 'Text must keep the placeholder {limit}',
    });
    expect((await put(admin, 'en-US', 'validation.maxLength', '{field} is too long', 'zh-CN')).body.message).toBe(
      '文本必须保留占位符 {limit}',
    );
    const extra = await put(admin, 'en-US', 'validation.maxLength', '{field} over {limit} by {excess}');
    expect(extra.body.message).toBe('Text uses the placeholder {excess}, which the original does not have (allowed: {field} {limit})');
    const unknown = await put(admin, 'es-ES', 'validation.noSuchRule', 'x', 'es-ES');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Clave de etiqueta desconocida: validation.noSuchRule');
    expect((await put(admin, 'ja-JP', 'validation.required', '   ', 'ja-JP')).body.message).toBe('テキストは必須です');
    expect((await put(admin, 'fr-FR', 'validation.required', '{field}')).status).toBe(400);
    expect((await put(admin, 'en-US', 'validation.required', 'x'.repeat(501) + '{field}')).status).toBe(400);
    expect((await publish(admin, 'validation.min')).body.code).toBe('labels.nothingToPublish');
    expect((await reset(admin, 'en-US', 'validation.required')).status).toBe(404);

    // Without the code: 403 on every write and on the list; a tenant's administrator holding every code: 403 too (shared).
    const nobody = await s.memberToken('HD', 'orgUser', []);
    expect((await put(nobody, 'en-US', 'validation.required', '{field}!')).status).toBe(403);
    expect((await s.call(nobody, 'GET', '/api/vehicle/labels')).status).toBe(403);
    expect((await publish(nobody, 'validation.required')).status).toBe(403);
    expect((await reset(nobody, 'en-US', 'validation.required')).status).toBe(403);
    const tenant = await s.memberToken('HN', 'administrator');
    const refused = await put(tenant, 'en-US', 'validation.required', '{field}!');
    expect([refused.status, refused.body.code]).toEqual([403, 'security.sharedSystemOnly']);
    // A system member given the code edits; nothing was stored by the refused calls.
    const analyst = await s.memberToken(ROOT_ORG, 'orgUser', ['label-edit']);
    expect((await put(analyst, 'en-US', 'validation.required', '{field}!')).status).toBe(200);
    const drafts = (await s.call(analyst, 'GET', '/api/vehicle/labels')).body.filter(
      (o: { key: string }) => o.key === 'validation.required',
    );
    expect(drafts.map((o: { draft: string }) => o.draft)).toEqual(['{field}!']);
    expect((await reset(analyst, 'en-US', 'validation.required')).status).toBe(204);
    // The catalogue is public (the sign-in page is translated too), any language of the four.
    expect((await s.call(null, 'GET', '/api/vehicle/labels/catalogue/ja-JP')).status).toBe(200);
    expect((await s.call(null, 'GET', '/api/vehicle/labels/catalogue/xx-XX')).status).toBe(400);
  });

  it('exports a patch that, applied to a copy of schemas/locales, gives the same catalogue as the server', async () => {
    const edits: Array<[string, (l: string) => string]> = [
      ['validation.maxLength', (l) => `${l} · {field} ≤ {limit}`],
      ['entity.vehicleBrand.fields.name', (l) => `${l} brand`],
      // Not in the entity's file: the common label fills it today; the patch writes it into the entity file.
      ['entity.vehicleBrand.fields.createdAt', (l) => `${l} added on`],
      ['menu.tools-labels', (l) => `${l} labels`],
      ['console.labels.title', (l) => `${l} "studio"\n`],
    ];
    for (const [key, text] of edits) {
      await putAll(key, all(text));
      expect((await publish(admin, key)).status).toBe(200);
    }
    // A draft is not published, so not exported.
    await put(admin, 'en-US', 'validation.minLength', 'draft {field} {limit}');

    const overrides = (await s.call(admin, 'GET', '/api/vehicle/labels')).body as Array<{
      locale: (typeof LANGUAGES)[number];
      key: string;
      published: string | null;
    }>;
    const patch = localePatch(
      localeSources as unknown as LocaleSources,
      overrides.filter((o) => o.published !== null).map((o) => ({ locale: o.locale, key: o.key, value: o.published! })),
    );
    expect(patch).toContain('+++ b/schemas/locales/en-US/entities/vehicleBrand.json');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-patch-'));
    try {
      fs.cpSync(path.join(process.cwd(), 'schemas/locales'), path.join(dir, 'schemas/locales'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'labels.patch'), patch);
      execFileSync('patch', ['-p1', '--quiet', '--forward', '-i', 'labels.patch'], { cwd: dir });
      for (const l of LANGUAGES) {
        const folder = path.join(dir, 'schemas/locales', l);
        const read = (f: string) => JSON.parse(fs.readFileSync(path.join(folder, f), 'utf8')) as unknown;
        const entities = Object.fromEntries(
          fs.readdirSync(path.join(folder, 'entities')).map((f) => [f.replace(/\.json$/, ''), read(`entities/${f}`)]),
        );
        const fromFiles = buildCatalogue({ messages: read('messages.json'), entities });
        const served = (await s.call(null, 'GET', `/api/vehicle/labels/catalogue/${l}`)).body;
        expect(fromFiles).toEqual(served);
        expect(served['validation.maxLength']).toBe(`${l} · {field} ≤ {limit}`);
        expect(served['validation.minLength']).toBe(defaultCatalogues[l]['validation.minLength']);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
