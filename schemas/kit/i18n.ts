/** Languages, Accept-Language matching and message interpolation, shared by console and server. */

export const LANGUAGES = ['zh-CN', 'en-US', 'es-ES', 'ja-JP'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** A flat catalogue: dotted key → message with {name} placeholders. */
export type Catalogue = Record<string, string>;
export type MessageParams = Record<string, string | number | undefined>;

/** zh, zh-TW, zh_CN → zh-CN; en-GB → en-US; unknown → null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.toLowerCase().startsWith(primary + '-')) ?? null;
}

/** The best supported language of an Accept-Language header (q-values honoured), else zh-CN. */
export function languageFromHeader(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

export function flatten(obj: unknown, prefix = '', out: Catalogue = {}): Catalogue {
  if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (typeof obj === 'string') {
    out[prefix] = obj;
  }
  return out;
}

export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (params[name] === undefined ? m : String(params[name])));
}

export type Translate = (key: string, params?: MessageParams) => string;
