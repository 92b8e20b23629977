import { Alert, Text } from '@mantine/core';
import type { PublicReplay } from '../../api/replay-viewing';
import { ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';

/** An ended show whose replay is still recorded or made: said calmly, with how far along once it is being made. */
export function ReplayPendingNotice({ replay }: { replay: Pick<PublicReplay, 'status' | 'progress'> }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" variant="light" radius="lg" icon={<ClockIcon />} title={t('live.replay.pendingTitle')} role="status" data-testid="replay-pending">
      <Text size="sm">
        {replay.status === 'processing' ? t('live.replay.progress', { progress: Math.round(replay.progress) }) : t('live.replay.pendingHint')}
      </Text>
    </Alert>
  );
}
