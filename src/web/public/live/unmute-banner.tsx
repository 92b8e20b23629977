import { Alert, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { VolumeIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import classes from './live-page.module.css';

/**
 * SPEC §7 promptUnmute: the seller asks the viewers to turn the sound on. It floats over the page, since
 * the viewer may be scrolled down to the bid panel; the phone's show places it under its top bar (`className`).
 */
export function UnmuteBanner({ onUnmute, onDismiss, className }: { onUnmute: () => void; onDismiss: () => void; className?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="oro"
      variant="filled"
      icon={<VolumeIcon />}
      role="alert"
      data-testid="unmute-banner"
      withCloseButton={false}
      className={className ?? classes.unmute}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={6}>
          <Text fw={700} size="sm">
            {t('live.unmute.title')}
          </Text>
          <Text size="sm">{t('live.unmute.message')}</Text>
          <Button size="xs" variant="white" color="dark" leftSection={<VolumeIcon size={14} />} onClick={onUnmute} w="fit-content">
            {t('live.unmute.action')}
          </Button>
        </Stack>
        <CloseButton aria-label={t('live.unmute.dismiss')} onClick={onDismiss} variant="transparent" c="inherit" />
      </Group>
    </Alert>
  );
}
