import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../../server/intelligence');
const ENGINE = path.join(ROOT, 'engine.ts');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const parsed = new Map(sourceFiles(ROOT).map((f) => [f, ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)]));

/** The files of server/intelligence a file imports or re-exports from, type-only ones included (a circle of types is a circle too). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const s of parsed.get(file)!.statements) {
    if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || !s.moduleSpecifier || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const spec = s.moduleSpecifier.text;
    if (!spec.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((t) => parsed.has(t));
    if (target) out.push(target);
  }
  return out;
}

/** Every import circle, as the files around it (strongly connected components of more than one file, or a file importing itself). */
function circles(): string[][] {
  const graph = new Map([...parsed.keys()].map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || graph.get(v)!.includes(v)) found.push(scc.map((f) => path.relative(ROOT, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const typeText = (t: ts.TypeNode | undefined) => t?.getText().replace(/\s/g, '');

/** The derivers defined under server/intelligence: functions answering a Deriver, and constants that are one. */
function deriverDefinitions(): Array<{ name: string; file: string }> {
  const out: Array<{ name: string; file: string }> = [];
  for (const [file, src] of parsed) {
    for (const s of src.statements) {
      if (ts.isFunctionDeclaration(s) && s.name && typeText(s.type) === 'Deriver') out.push({ name: s.name.text, file });
      if (ts.isVariableStatement(s))
        for (const d of s.declarationList.declarations)
          if (ts.isIdentifier(d.name) && typeText(d.type) === 'Deriver') out.push({ name: d.name.text, file });
    }
  }
  return out;
}

/** Lines of TypeScript under server/intelligence, as `find server/intelligence -name '*.ts' | xargs cat | wc -l` counts them. */
const lineCount = () => [...parsed.keys()].reduce((n, f) => n + (fs.readFileSync(f, 'utf8').match(/\n/g) ?? []).length, 0);

/** Where a file registers HTTP routes or hooks: a call of `app.get/post/put/delete/patch/route/addHook`, or a `register…Route(s)`/`register…Feature` it defines. */
function routeRegistrations(file: string, src: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      /^(get|post|put|delete|patch|route|addHook)$/.test(n.expression.name.text) &&
      /^(app|fastify|server|instance)$/.test(n.expression.expression.getText())
    )
      out.push(`${path.relative(ROOT, file)}: ${n.expression.getText()}`);
    const defined = ts.isFunctionDeclaration(n) ? n.name : ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) ? n.name : undefined;
    if (defined && /^register\w*(Routes?|Feature)$/.test(defined.text)) out.push(`${path.relative(ROOT, file)}: ${defined.text}`);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('server/intelligence structure', () => {
  it('has no import circle', () => {
    expect(parsed.size).toBeGreaterThan(50);
    expect(circles()).toEqual([]);
  });

  it('finds a circle when there is one (the check itself)', () => {
    const a = path.join(ROOT, '__circle_a.ts');
    const b = path.join(ROOT, '__circle_b.ts');
    parsed.set(a, ts.createSourceFile(a, "import type { B } from './__circle_b';\nexport type A = B;", ts.ScriptTarget.Latest, true));
    parsed.set(b, ts.createSourceFile(b, "export { type A as B } from './__circle_a';", ts.ScriptTarget.Latest, true));
    try {
      expect(circles()).toEqual([['__circle_a.ts', '__circle_b.ts']]);
    } finally {
      parsed.delete(a);
      parsed.delete(b);
    }
  });

  it('lists every deriver in the engine file, each imported from where it is defined', () => {
    const defined = deriverDefinitions();
    expect(defined.map((d) => d.name).sort()).toEqual(
      expect.arrayContaining(['alarmDeriver', 'behaviourDeriver', 'ledgerDeriver', 'tripDeriver', 'trackMinuteDeriver']),
    );
    const engine = parsed.get(ENGINE)!;
    const imported = new Map<string, string>();
    for (const s of engine.statements) {
      if (
        !ts.isImportDeclaration(s) ||
        !ts.isStringLiteral(s.moduleSpecifier) ||
        !s.importClause?.namedBindings ||
        !ts.isNamedImports(s.importClause.namedBindings)
      )
        continue;
      for (const e of s.importClause.namedBindings.elements) imported.set(e.name.text, `${path.resolve(ROOT, s.moduleSpecifier.text)}.ts`);
    }
    // Used in the list, not only imported.
    const used = new Set<string>();
    const walk = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && !ts.isImportSpecifier(n.parent)) used.add(n.text);
      ts.forEachChild(n, walk);
    };
    walk(engine);
    const missing = defined.filter((d) => d.file !== ENGINE && (imported.get(d.name) !== d.file || !used.has(d.name)));
    expect(missing.map((d) => `${d.name} (${path.relative(ROOT, d.file)})`)).toEqual([]);
  });

  it('holds the derivation engine alone: under 8,700 lines, and no HTTP routes', () => {
    expect(lineCount()).toBeLessThan(8_700);
    expect([...parsed].flatMap(([file, src]) => routeRegistrations(file, src))).toEqual([]);
  });

  it('finds routes when a file registers them (the check itself)', () => {
    const file = path.join(ROOT, '__routes.ts');
    const src = ts.createSourceFile(
      file,
      "export function registerThingRoutes(app: App) {\n  app.post('/api/thing', async () => ({}));\n}",
      ts.ScriptTarget.Latest,
      true,
    );
    expect(routeRegistrations(file, src)).toEqual(['__routes.ts: registerThingRoutes', '__routes.ts: app.post']);
  });
});
