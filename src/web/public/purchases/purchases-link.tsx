import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { fetchMe, meKeys } from '../../api/me';
import { useTranslation } from '../../i18n';
import { PURCHASES_PATH } from '../../routes';

/**
 * Whether the page already knows the viewer is signed in. It reads the `me` answer the page's own
 * reads brought (the bid panel's, the chat's) and never asks for it: a link costs no request.
 */
export function useIsSignedIn(): boolean {
  const me = useQuery({ queryKey: meKeys.all, queryFn: ({ signal }) => fetchMe(signal), enabled: false });
  return Boolean(me.data);
}

/** 'Mis compras' for a signed-in viewer: a plain link to /compras, nothing while signed out. */
export function PurchasesLink({ className }: { className?: string }) {
  const { t } = useTranslation();
  const isSignedIn = useIsSignedIn();
  // On 'Mis compras' itself the link would lead nowhere new (and a page rendered without a browser has no address).
  const isHere = typeof window !== 'undefined' && window.location.pathname === PURCHASES_PATH;
  if (!isSignedIn || isHere) return null;
  if (className)
    return (
      <a href={PURCHASES_PATH} className={className} data-testid="purchases-link">
        {t('purchases.nav.link')}
      </a>
    );
  return (
    <Anchor href={PURCHASES_PATH} size="sm" fw={600} data-testid="purchases-link">
      {t('purchases.nav.link')}
    </Anchor>
  );
}
