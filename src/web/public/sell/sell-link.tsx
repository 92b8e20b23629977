import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { canUsePanel } from '../../../domain/role-rules.js';
import { SELL_PATH } from '../../../domain/screens.js';
import { fetchMe, meKeys } from '../../api/me';
import { useTranslation } from '../../i18n';

/**
 * *Quiero vender* in the buyers' header, for a signed-in account that does not sell yet. Like
 * *Mis compras*, it reads the `me` answer the page already has and never asks for it.
 */
export function SellLink() {
  const { t } = useTranslation();
  const me = useQuery({ queryKey: meKeys.all, queryFn: ({ signal }) => fetchMe(signal), enabled: false });
  const isHere = typeof window !== 'undefined' && window.location.pathname === SELL_PATH;
  if (!me.data || canUsePanel(me.data.roles) || isHere) return null;
  return (
    <Anchor href={SELL_PATH} size="sm" fw={600} data-testid="sell-link">
      {t('auth.wantToSell')}
    </Anchor>
  );
}
