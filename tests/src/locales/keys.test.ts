import fs from 'node:fs';
import path from 'node:path';
import { catalogues } from '../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../schemas/kit/i18n';
import { PASSWORD_RULES } from '../../../schemas/kit/password';
import { UI_SIZES } from '../../../src/shell/settings';

const srcDir = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') ? [] : sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

// Keys built at run time, expanded over every value they can take.
const dynamic: Record<string, readonly string[]> = {
  'console.languages.${l}': LANGUAGES.map((l) => `console.languages.${l}`),
  'console.size.${s}': UI_SIZES.map((s) => `console.size.${s}`),
  'validation.password.rules.${rule}': PASSWORD_RULES.map((r) => `validation.password.rules.${r}`),
  'validation.password.strength.${level}': ['weak', 'medium', 'strong'].map((l) => `validation.password.strength.${l}`),
  'console.password.${k}': ['oldPassword', 'newPassword', 'confirmPassword', 'oldLength', 'rules', 'cancel', 'submit'].map((k) => `console.password.${k}`),
};

/** Every message key the console's code names: t('…'), id: '…', and the template keys above. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sources(srcDir)) {
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(?:t|label)\(\s*['"]([\w.-]+)['"]/g)) if (m[1].includes('.')) keys.add(m[1]);
    for (const m of code.matchAll(/\bt\(\s*(\w+)\s*\?\s*['"]([\w.-]+)['"]\s*:\s*['"]([\w.-]+)['"]/g)) keys.add(m[2]).add(m[3]);
    for (const m of code.matchAll(/\bt\(`([^`]+)`/g)) {
      const expanded = dynamic[m[1]];
      if (!expanded) throw new Error(`${path.relative(srcDir, file)}: add the template key ${m[1]} to this test`);
      expanded.forEach((k) => keys.add(k));
    }
  }
  return keys;
}

describe('console message keys', () => {
  const keys = usedKeys();

  it('finds the keys the shell uses', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(keys).toContain('console.tabs.closeOthers');
    expect(keys).toContain('http.logoutTitle');
  });

  it.each(LANGUAGES)('%s has every key the console uses', (lang) => {
    const missing = [...keys].filter((k) => !catalogues[lang][k]);
    expect(missing).toEqual([]);
  });
});
