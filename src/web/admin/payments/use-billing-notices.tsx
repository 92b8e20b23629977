import { Anchor, Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { isApiError, NETWORK_ERROR_STATUS } from '../../api/client';
import { useTranslation } from '../../i18n';
import { copyText, openInNewTab } from '../../lib/browser';
import { useErrorText } from '../../lib/use-error-text';

export type CopyMessage = 'linkCopied' | 'linkCopiedFinalize' | 'linkCopiedModal';

/** A server error or an unreachable server when finalising: the provider could not make the link. */
export function isServerFailure(error: unknown): boolean {
  return !isApiError(error) || error.status === NETWORK_ERROR_STATUS || error.status >= 500;
}

/** Mantine notifications for the billing screens: SPEC §8's messages, with the server's reason under a failure. */
export function useBillingNotices() {
  const { t } = useTranslation();
  const errorText = useErrorText();

  return useMemo(() => {
    const success = (message: string) => notifications.show({ color: 'green', message });
    const failure = (title: string, error?: unknown) =>
      notifications.show(
        error === undefined ? { color: 'red', message: title, autoClose: 8000 } : { color: 'red', title, message: errorText(error), autoClose: 8000 },
      );

    /** SPEC §8: if copying fails, the link itself is shown. */
    const showLink = (title: string, intro: string, link: string) =>
      notifications.show({
        color: 'yellow',
        title,
        autoClose: false,
        message: (
          <Stack gap={4}>
            <Text size="sm">{intro}</Text>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', userSelect: 'all' }}>
              {link}
            </Code>
          </Stack>
        ),
      });

    const copyLink = async (link: string, message: CopyMessage) => {
      if (await copyText(link)) success(t(`payments.notices.${message}`));
      else showLink(t('payments.notices.copyFailedTitle'), t('payments.notices.copyFailed'), link);
    };

    /** Opens the winner's WhatsApp chat with the message; a blocked tab leaves a link to click instead. */
    const openWhatsapp = (href: string) => {
      if (openInNewTab(href)) return;
      notifications.show({
        color: 'yellow',
        title: t('payments.notices.whatsappBlockedTitle'),
        autoClose: false,
        message: (
          <Stack gap={4}>
            <Text size="sm">{t('payments.notices.whatsappBlocked')}</Text>
            <Anchor href={href} target="_blank" rel="noopener noreferrer" fw={600}>
              {t('payments.notices.openWhatsapp')}
            </Anchor>
          </Stack>
        ),
      });
    };

    const noWhatsapp = (link: string) => showLink(t('payments.notices.noWhatsappTitle'), t('payments.notices.noWhatsapp'), link);

    return { success, failure, copyLink, openWhatsapp, noWhatsapp };
  }, [t, errorText]);
}
