import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../helpers/testServer';

/**
 * The documentation holds: every relative link and image of README.md, CONTRIBUTING.md,
 * CHANGELOG.md and docs/ points at a file that exists (and at a heading of it when it names one),
 * and every `curl` example of docs/api.md succeeds against a real server.
 */

const ROOT = path.resolve(__dirname, '../..');

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const file = path.join(dir, e.name);
      return e.isDirectory() ? walk(file) : e.name.endsWith('.md') ? [file] : [];
    });
  return [...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((f) => path.join(ROOT, f)), ...walk(path.join(ROOT, 'docs'))];
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** `[text](target)` and `![alt](target)` targets, without an optional title. */
function linkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const m of prose(markdown).matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  return out;
}

/** GitHub's heading anchors: lower case, punctuation and symbols dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = m[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

describe('documentation links', () => {
  const files = markdownFiles();

  it('finds the pages', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s: every relative link and image resolves', (_name, file) => {
    const markdown = fs.readFileSync(file, 'utf8');
    const broken: string[] = [];
    for (const target of linkTargets(markdown)) {
      if (isExternal(target)) continue;
      const [rawPath, anchor] = target.split('#', 2);
      const resolved = rawPath ? path.resolve(path.dirname(file), decodeURI(rawPath)) : file;
      if (!resolved.startsWith(ROOT + path.sep) || !fs.existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !headingAnchors(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads links and anchors as GitHub does', () => {
    const links = linkTargets('see [a](x.md#b-c) and ![i](img/p.jpg "t"), not `[c](d.md)`\n```\n[e](f.md)\n```');
    expect(links).toEqual(['x.md#b-c', 'img/p.jpg']);
    const anchors = headingAnchors('# Notifications (车队管理 → 通知)\n## Scale-out: with NATS\n## A\n## A');
    expect([...anchors]).toEqual(['notifications-车队管理--通知', 'scale-out-with-nats', 'a', 'a-1']);
  });
});

/** The ```bash blocks of docs/api.md that run curl. */
function curlExamples(): string[] {
  const markdown = fs.readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
  return [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]).filter((block) => /\bcurl\b/.test(block));
}

function runBash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('docs/api.md curl examples', () => {
  let server: TestServer;
  let base: string;
  let cwd: string;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-docs-curl-'));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
  });

  const examples = curlExamples();

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((block, i) => [i + 1, block]))('example %i answers 2xx', async (_n, block) => {
    // A fresh sign-in per block: an example may sign out.
    const token = await server.login('admin', ADMIN_PASSWORD);
    // Every curl of the block fails the block on an answer of 400 or above.
    const script = `set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n${block}`;
    const { code, output } = await runBash(script, { BASE: base, TOKEN: token, PASSWORD: ADMIN_PASSWORD }, cwd);
    if (code !== 0) throw new Error(`example failed (exit ${code}):\n${block}\n---\n${output}`);
  });
});
