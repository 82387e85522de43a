import { useEffect, useState } from 'react';

/** SPEC.md §9: under 992 px the console is in mobile mode (sidebar as a drawer). */
export const MOBILE_BREAKPOINT = 992;

export const isMobileWidth = (width: number): boolean => width < MOBILE_BREAKPOINT;

export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => isMobileWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}
