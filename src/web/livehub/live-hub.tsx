import { Box, Button, Container, EmptyState, Group, Paper, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Me } from '../../domain/api-types.js';
import { CompanyInfo } from '../admin/company-info';
import { DevModeBadge } from '../components/dev-mode-badge';
import { ArrowLeftIcon, BroadcastIcon } from '../components/icons';
import { PanelGate } from '../components/panel-gate';
import { ProfileModal } from '../components/profile-modal';
import { SiteFooter } from '../components/site-footer';
import { useProfilePrompt } from '../components/use-profile-prompt';
import { ADMIN_HOME } from '../routes';
import './live-hub.css';

/** The page background belongs to the Live Hub only; it is removed when the screen changes. */
function useLiveHubBackground() {
  useEffect(() => {
    document.body.classList.add('livehub-page');
    return () => document.body.classList.remove('livehub-page');
  }, []);
}

/** Any path ending in /livehub (SPEC §2): the seller's broadcast control room. */
export function LiveHub() {
  useLiveHubBackground();
  return <PanelGate inverted>{(me) => <LiveHubScreen me={me} />}</PanelGate>;
}

function LiveHubScreen({ me }: { me: Me }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profilePrompt = useProfilePrompt(me);

  return (
    <Stack mih="100dvh" gap={0} justify="space-between">
      <Box component="header" px="md" py="sm" style={{ borderBottom: '1px solid rgba(255,255,255,0.08)' }}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="md" wrap="wrap">
            <Group gap={8} c="oro.4" wrap="nowrap">
              <BroadcastIcon size={24} />
              <Title order={1} size="h3" c="white">
                {t('livehub.title')}
              </Title>
            </Group>
            <CompanyInfo me={me} inverted />
            <DevModeBadge />
          </Group>
          <Button variant="white" color="dark" leftSection={<ArrowLeftIcon size={16} />} onClick={() => navigate(ADMIN_HOME)}>
            {t('livehub.backToAdmin')}
          </Button>
        </Group>
      </Box>
      <Container size="lg" w="100%" py="lg" flex={1}>
        <Paper radius="lg" p="lg" component="section" aria-labelledby="livehub-sessions-title">
          <Title order={2} size="h4" id="livehub-sessions-title" mb="md">
            {t('livehub.sessionsTitle')}
          </Title>
          <EmptyState icon={<BroadcastIcon size={28} />} title={t('livehub.noSessions')} color="martillo" />
        </Paper>
      </Container>
      <SiteFooter inverted />
      <ProfileModal opened={profilePrompt.opened} onClose={profilePrompt.close} me={me} />
    </Stack>
  );
}
