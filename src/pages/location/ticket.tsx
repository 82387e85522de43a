import { useParams } from '@umijs/max';
import LocationView from './LocationView';

/** `/location/{ticket}`: public, reachable without a token (the route guard lets it through). */
export default function LocationPage() {
  const { ticket = '' } = useParams<{ ticket: string }>();
  return <LocationView ticket={ticket} />;
}
