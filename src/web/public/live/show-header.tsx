import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import type { LiveSessionPublic } from '../../../domain/live.js';
import { livePath } from '../../../domain/live-public.js';
import { ChatIcon } from '../../components/icons';
import { ShareButton } from '../../components/share-button';
import { storeHref, storeOf } from '../../components/store-link';
import { useTranslation } from '../../i18n';

/** The show's title, its seller (a link to their page), their WhatsApp group and 'Compartir': the wide page's and the replay's head. */
export function ShowHeader({ session }: { session: LiveSessionPublic }) {
  const { t } = useTranslation();
  const store = storeOf(session);
  return (
    <Stack gap={6} component="header">
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {session.title}
      </Title>
      {store ? (
        <Anchor href={storeHref(store)} size="sm" c="dimmed" td="underline" w="fit-content" data-testid="seller-store-link">
          {t('live.seller', { name: session.sellerName || store.name })}
        </Anchor>
      ) : (
        session.sellerName && (
          <Text size="sm" c="dimmed" data-testid="seller-name">
            {t('live.seller', { name: session.sellerName })}
          </Text>
        )
      )}
      {session.whatsappLink && (
        <Button
          component="a"
          href={session.whatsappLink}
          target="_blank"
          rel="noopener noreferrer"
          color="green"
          variant="light"
          leftSection={<ChatIcon />}
          w="fit-content"
          data-testid="whatsapp-link"
        >
          {t('live.whatsapp')}
        </Button>
      )}
      <ShareButton title={session.title} url={livePath(session)} />
    </Stack>
  );
}
