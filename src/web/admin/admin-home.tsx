import { Badge, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../domain/api-types.js';
import { displayNameOf } from '../api/me';
import { GavelIcon } from '../components/icons';

/** The main area until the auction management panel lands: a welcome and the auctions' empty state. */
export function AdminHome({ me }: { me: Me }) {
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
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="admin-auctions-title">
        <Title order={2} size="h4" id="admin-auctions-title" mb="md">
          {t('admin.auctionsTitle')}
        </Title>
        <EmptyState icon={<GavelIcon size={28} />} title={t('admin.noAuctions')} description={t('admin.noAuctionsHint')} color="martillo" variant="light" />
      </Card>
    </Stack>
  );
}
