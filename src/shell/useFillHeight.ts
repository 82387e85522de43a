import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The height that lets an element reach the window's bottom, `bottom` px short of it, whatever
 * stands above it (header, tabs, alerts: their heights differ between a phone and a desktop);
 * `min` at least. Measured again when the window is resized.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>, bottom: number, min: number): number {
  const [height, setHeight] = useState(min);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(min, Math.floor(window.innerHeight - top - bottom)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });
  return height;
}
