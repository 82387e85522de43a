import { useEffect, useState } from 'react';
import { mapConfig, type MapConfig } from '../../services/location';

/** The server's tile configuration, asked once per page; while unknown, null (a map waits for it). */
let cached: Promise<MapConfig> | null = null;

export function useMapConfig(): MapConfig | null {
  const [config, setConfig] = useState<MapConfig | null>(null);
  useEffect(() => {
    let live = true;
    cached ??= mapConfig().catch((e: unknown) => {
      cached = null;
      throw e;
    });
    // Unreachable configuration: draw without tiles rather than not at all.
    cached.then(
      (c) => live && setConfig(c),
      () => live && setConfig({ tileUrl: null, coordSystem: 'WGS84', attribution: null }),
    );
    return () => {
      live = false;
    };
  }, []);
  return config;
}
