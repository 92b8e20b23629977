import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { LiveSessionPublic } from '../../domain/live.js';
import { livePath } from '../../domain/live-public.js';
import { CopyIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { copyText } from '../lib/browser';
import { absoluteLink } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';

/**
 * The session's public link under its title: 'Copiar enlace' copies it, and when the browser
 * refuses the clipboard the link is shown in a window to copy by hand. Without a session, the hint
 * to load one.
 */
export function SessionLink({ session }: { session: LiveSessionPublic | null }) {
  const { t } = useTranslation();
  const [shownLink, setShownLink] = useState<string | null>(null);
  const link = session ? absoluteLink(window.location.origin, livePath(session)) : '';

  const copy = async () => {
    if (await copyText(link)) notifications.show({ color: 'green', message: t('livehub.transmission.linkCopied') });
    else setShownLink(link);
  };

  return (
    <>
      {session ? (
        <Group gap="xs" wrap="nowrap">
          <Button variant="light" leftSection={<CopyIcon size={16} />} onClick={() => void copy()} style={{ flexShrink: 0 }}>
            {t('livehub.transmission.copyLink')}
          </Button>
          <Text size="xs" c="dimmed" truncate="end" miw={0} title={link}>
            {livePath(session)}
          </Text>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {t('livehub.broadcast.noSessionHint')}
        </Text>
      )}
      <Modal
        stackId={HUB_WINDOW.publicLink}
        opened={shownLink !== null}
        onClose={() => setShownLink(null)}
        title={t('livehub.transmission.copyFailedTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('livehub.transmission.copyFailedText')}</Text>
          <TextInput
            readOnly
            value={shownLink ?? ''}
            aria-label={t('livehub.transmission.publicLink')}
            onFocus={(e) => e.currentTarget.select()}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button onClick={() => setShownLink(null)}>{t('livehub.transmission.close')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
