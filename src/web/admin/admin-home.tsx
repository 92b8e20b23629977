import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Me } from '../../domain/api-types.js';
import { displayNameOf } from '../api/me';
import { useTranslation } from '../i18n';
import { AuctionPanel } from './auctions/auction-panel';

/** The main area: a short welcome, then the auction management panel (SPEC §2). */
export function AdminHome({ me, onEditAuction }: { me: Me; onEditAuction: (auctionId: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Card withBorder radius="lg" padding="lg">
        <Stack gap="xs">
          <Title order={1} size="h2">
            {t('admin.welcomeTitle', { name: displayNameOf(me) })}
          </Title>
          <Text c="dimmed">{t('admin.welcomeText')}</Text>
          <Group gap="xs">
            {me.roles.map((role) => (
              <Badge key={role} variant="light" color={role === 'admin' ? 'martillo' : 'gray'}>
                {t(`admin.roles.${role}`)}
              </Badge>
            ))}
          </Group>
        </Stack>
      </Card>
      <AuctionPanel me={me} onEdit={onEditAuction} />
    </Stack>
  );
}
