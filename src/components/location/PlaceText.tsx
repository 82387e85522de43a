import { Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { addressOf } from './addressBook';

export interface PlaceTextProps {
  latitude: number | null;
  longitude: number | null;
  /** Shown with no position. */
  empty?: string;
}

const coordinates = (lat: number, lng: number) => `${lat.toFixed(5)}, ${lng.toFixed(5)}`;

/**
 * A position as a person reads it: its address (server/geocode: the configured provider's, else
 * province, city and district), the coordinates on hover; the coordinates alone until the address
 * comes or when none is known.
 */
export default function PlaceText({ latitude, longitude, empty = '—' }: PlaceTextProps) {
  const [address, setAddress] = useState<{ text: string; source: string } | null>(null);
  useEffect(() => {
    let live = true;
    setAddress(null);
    if (latitude === null || longitude === null) return undefined;
    void addressOf(latitude, longitude).then((a) => live && a?.address && setAddress({ text: a.address, source: a.source ?? '' }));
    return () => {
      live = false;
    };
  }, [latitude, longitude]);
  if (latitude === null || longitude === null) return <>{empty}</>;
  const coords = coordinates(latitude, longitude);
  if (!address)
    return (
      <span data-testid="place-text" data-source="">
        {coords}
      </span>
    );
  return (
    <Tooltip title={coords}>
      <span data-testid="place-text" data-source={address.source}>
        {address.text}
      </span>
    </Tooltip>
  );
}
