import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useState } from 'react';
import type { AuctionDetail } from '../../../domain/auctions.js';
import { useAuctionDetail } from '../../api/auctions';
import { isApiError } from '../../api/client';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { AuctionForm } from './auction-form';

export interface AuctionFormModalProps {
  opened: boolean;
  /** null: create a new auction; otherwise edit this one. */
  auctionId: string | null;
  onClose: () => void;
}

/** SPEC §9's mobile breakpoint: below 780 px the form takes the whole screen. */
const MOBILE_QUERY = '(max-width: 779.98px)';

interface BodyProps {
  onDirtyChange: (isDirty: boolean) => void;
  onCancel: () => void;
  onSaved: () => void;
}

/** The auction create/edit form (SPEC §5). Closing with unsaved changes asks first. */
export function AuctionFormModal({ opened, auctionId, onClose }: AuctionFormModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [isDirty, setIsDirty] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);

  useEffect(() => {
    if (!opened) {
      setIsDirty(false);
      setIsConfirming(false);
    }
  }, [opened]);

  const requestClose = useCallback(() => {
    if (isDirty) setIsConfirming(true);
    else onClose();
  }, [isDirty, onClose]);

  const closeNow = useCallback(() => {
    setIsDirty(false);
    setIsConfirming(false);
    onClose();
  }, [onClose]);

  const bodyProps: BodyProps = { onDirtyChange: setIsDirty, onCancel: requestClose, onSaved: closeNow };

  return (
    <Modal.Stack>
      <Modal
        stackId="auction-form"
        opened={opened}
        onClose={requestClose}
        title={auctionId ? t('auctionForm.titleEdit') : t('auctionForm.titleCreate')}
        size="xl"
        fullScreen={isMobile}
        centered={!isMobile}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {opened && (auctionId ? <EditBody key={auctionId} auctionId={auctionId} {...bodyProps} /> : <AuctionForm detail={null} {...bodyProps} />)}
      </Modal>
      <Modal
        stackId="auction-form-discard"
        opened={opened && isConfirming}
        onClose={() => setIsConfirming(false)}
        title={t('auctionForm.discard.title')}
        size="sm"
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('auctionForm.discard.text')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setIsConfirming(false)} data-autofocus>
              {t('auctionForm.discard.keepEditing')}
            </Button>
            <Button color="red" onClick={closeNow}>
              {t('auctionForm.discard.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Modal.Stack>
  );
}

/** Edit: load the auction fresh for this opening (loading, error with retry), then the form. */
function EditBody({ auctionId, ...props }: BodyProps & { auctionId: string }) {
  const { t } = useTranslation();
  const detail = useAuctionDetail(auctionId);
  // Seeded once: a later refetch (a socket event, say) must not replace what is being typed.
  const [seed, setSeed] = useState<AuctionDetail | null>(null);
  if (!seed && detail.data && detail.isFetchedAfterMount && !detail.isFetching && !detail.isError) setSeed(detail.data);

  // Only the end time follows later reads: a late bid's anti-sniping moves it while the form is open.
  if (seed) return <AuctionForm detail={seed} serverEndTime={detail.data?.endTime} {...props} />;
  if (detail.isError && !detail.isFetching) {
    const error = detail.error;
    const message =
      isApiError(error) && error.status === 404
        ? t('auctionForm.notFound')
        : apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('auctionForm.loadFailed') });
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert" title={t('auctionForm.loadFailed')}>
          {message}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('auctionForm.cancel')}
          </Button>
          <Button onClick={() => void detail.refetch()}>{t('common.retry')}</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Group gap="sm" py="lg" justify="center" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden="true" />
      <Text>{t('auctionForm.loading')}</Text>
    </Group>
  );
}
