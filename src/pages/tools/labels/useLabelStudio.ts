import { getLocale } from '@umijs/max';
import { useCallback, useEffect, useState } from 'react';
import { localeSources } from '../../../../schemas/generated/locales';
import { defaultCatalogues } from '../../../../schemas/kit/catalogue';
import { DEFAULT_LANGUAGE, LANGUAGES, matchLanguage, type Language } from '../../../../schemas/kit/i18n';
import type { LabelOverride } from '../../../../schemas/kit/labelRules';
import { localePatch, type LocaleSources } from '../../../../schemas/kit/localePatch';
import { fetchCatalogue, listOverrides, publishKey, putDraft, resetOverride } from '../../../services/labels';
import { loadCatalogue } from '../../../session/catalogue';
import type { Catalogues } from './rows';

/**
 * The label studio's state and calls: the four effective catalogues, the overrides, and saving,
 * publishing and resetting, after which the console in use reloads its own language's words.
 */
export function useLabelStudio() {
  const [effective, setEffective] = useState<Catalogues>(defaultCatalogues);
  const [overrides, setOverrides] = useState<LabelOverride[]>([]);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const [list, ...cats] = await Promise.all([listOverrides(), ...LANGUAGES.map((l) => fetchCatalogue(l))]);
      setOverrides(list);
      setEffective(Object.fromEntries(LANGUAGES.map((l, i) => [l, cats[i]])) as Catalogues);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void reload().catch(() => undefined); // the request layer has shown why
  }, [reload]);

  /** After a publish or reset: this console shows the new words at once. */
  const refreshConsole = () => loadCatalogue(matchLanguage(getLocale()) ?? DEFAULT_LANGUAGE);

  /** Saves the languages whose text changed; publishes all four when asked. */
  const save = async (key: string, values: Partial<Record<Language, string>>, publish: boolean) => {
    for (const l of LANGUAGES) {
      const v = values[l];
      const stored = overrides.find((o) => o.key === key && o.locale === l)?.draft;
      if (v && v !== stored) await putDraft(l, key, v);
    }
    try {
      if (publish) {
        await publishKey(key);
        await refreshConsole();
      }
    } finally {
      await reload();
    }
  };

  const publish = async (key: string) => {
    try {
      await publishKey(key);
      await refreshConsole();
    } finally {
      await reload();
    }
  };

  /** Back to the default in every language that has an override. */
  const reset = async (key: string) => {
    try {
      for (const o of overrides.filter((x) => x.key === key)) await resetOverride(o.locale, key);
      await refreshConsole();
    } finally {
      await reload();
    }
  };

  /** The published overrides as a patch of schemas/locales ('' when there are none). */
  const exportPatch = async () => {
    const list = await listOverrides();
    return localePatch(
      localeSources as unknown as LocaleSources,
      list.filter((o) => o.published !== null).map((o) => ({ locale: o.locale, key: o.key, value: o.published! })),
    );
  };

  return { effective, overrides, loading, save, publish, reset, exportPatch };
}
