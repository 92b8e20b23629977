import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useDeclineOffer } from '../../api/purchases';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';

/**
 * A second-chance offer is never binding: the buyer may turn it down. Asked twice (a tap on a phone
 * is easy to make by mistake); the bill is then canceled and the seller may offer the lot to someone else.
 */
export function DeclineOffer({ offerId }: { offerId: string }) {
  const { t } = useTranslation();
  const decline = useDeclineOffer();
  const [isAsking, setIsAsking] = useState(false);
  if (!isAsking)
    return (
      <Button variant="subtle" color="gray" size="sm" onClick={() => setIsAsking(true)}>
        {t('purchases.decline.button')}
      </Button>
    );
  return (
    <Stack gap="xs" data-testid="decline-offer">
      <Text size="sm">{t('purchases.decline.question')}</Text>
      {decline.isError && (
        <Alert color="red" variant="light" role="alert">
          {apiErrorText(decline.error, { networkMessage: t('common.networkError'), fallback: t('purchases.decline.failed') })}
        </Alert>
      )}
      <Group gap="xs">
        <Button color="red" variant="light" size="sm" loading={decline.isPending} onClick={() => decline.mutate(offerId)}>
          {t('purchases.decline.confirm')}
        </Button>
        <Button variant="default" size="sm" disabled={decline.isPending} onClick={() => setIsAsking(false)}>
          {t('purchases.decline.keep')}
        </Button>
      </Group>
    </Stack>
  );
}
