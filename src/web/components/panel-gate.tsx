import type { ReactNode } from 'react';
import type { Me } from '../../domain/api-types.js';
import { hasPanelAccess, useMe } from '../api/me';
import { useSocketConnection } from '../api/socket';
import { ErrorScreen } from './error-screen';
import { InvitationGate } from './invitations/invitation-gate';
import { LoadingScreen } from './loading-screen';
import { UnauthorizedScreen } from './unauthorized-screen';

/**
 * The admin panel and the Live Hub are for admins and sellers only (SPEC §6). The socket is
 * connected exactly while such a user is signed in (SPEC §4 Auth).
 */
export function PanelGate({ children, inverted = false }: { children: (me: Me) => ReactNode; inverted?: boolean }) {
  const me = useMe();
  const isAuthorised = hasPanelAccess(me.data);
  useSocketConnection(isAuthorised);

  if (me.isPending) return <LoadingScreen inverted={inverted} />;
  if (me.isError && me.data === undefined) return <ErrorScreen error={me.error} onRetry={() => void me.refetch()} />;
  if (!hasPanelAccess(me.data)) {
    const unauthorized = <UnauthorizedScreen me={me.data ?? null} inverted={inverted} />;
    // A signed-in buyer may hold an invitation to sell: it is answered here, where sign-in lands.
    return me.data ? <InvitationGate me={me.data} fallback={unauthorized} inverted={inverted} /> : unauthorized;
  }
  return children(me.data);
}
