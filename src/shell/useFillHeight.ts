import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The height that lets an element reach the window's bottom, `bottom` px short of it, whatever
 * stands above it (header, tabs, alerts: their heights differ between a phone and a desktop);
 * `min` at least. Measured when the window is resized and when `above` changes: a key of what
 * the page shows above the element (measuring on every render would force a layout on each live
 * update).
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, bottom: number, min: number, above: string): number {
  const [height, setHeight] = useState(min);
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top + window.scrollY;
    setHeight(Math.max(min, Math.floor(window.innerHeight - top - bottom)));
  }, [ref, bottom, min]);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);
  useLayoutEffect(measure, [measure, above]);
  return height;
}
