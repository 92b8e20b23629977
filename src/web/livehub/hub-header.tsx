import { Box, Button, Group, Menu, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import type { Me } from '../../domain/api-types.js';
import { CompanyInfo } from '../components/company-info';
import { DevModeBadge } from '../components/dev-mode-badge';
import { BroadcastIcon } from '../components/icons';
import { ArrowLeftIcon, DotsIcon, ListIcon, PlusIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { ADMIN_HOME } from '../routes';
import { COMPACT_QUERY } from './hub-layout';

export interface HubHeaderActions {
  onManageSessions: () => void;
  onCreateSession: () => void;
  onAddAuction: () => void;
  /** 'Volver a Admin': by default straight to the panel; the Hub asks first while it broadcasts. */
  onBack?: () => void;
}

/**
 * 'Live Shopping' with the company and SPEC §2's four buttons. Below 780 px the buttons collapse
 * into 'Más' (a Mantine Menu: it closes on an outside click and on Escape).
 */
export function HubHeader({ me, onManageSessions, onCreateSession, onAddAuction, onBack }: { me: Me } & HubHeaderActions) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Until the first measurement, assume the wide layout (the server renders nothing anyway).
  const isCompact = useMediaQuery(COMPACT_QUERY) ?? false;
  const goBack = onBack ?? (() => navigate(ADMIN_HOME));

  return (
    <Box component="header" px="md" py="sm" style={{ borderBottom: '1px solid rgba(255,255,255,0.08)' }}>
      <Group justify="space-between" wrap={isCompact ? 'nowrap' : 'wrap'} gap="sm">
        <Group gap="md" wrap="wrap" miw={0}>
          <Group gap={8} c="oro.4" wrap="nowrap">
            <BroadcastIcon size={24} />
            <Title order={1} size="h3" c="white">
              {t('livehub.title')}
            </Title>
          </Group>
          <CompanyInfo me={me} inverted />
          <DevModeBadge />
        </Group>
        {isCompact ? (
          <Menu position="bottom-end" withinPortal shadow="md" width={230} closeOnClickOutside>
            <Menu.Target>
              <Button variant="white" color="dark" leftSection={<DotsIcon size={16} />} style={{ flexShrink: 0 }}>
                {t('livehub.header.more')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<ArrowLeftIcon size={16} />} onClick={goBack}>
                {t('livehub.backToAdmin')}
              </Menu.Item>
              <Menu.Item leftSection={<ListIcon size={16} />} onClick={onManageSessions}>
                {t('livehub.header.manageSessions')}
              </Menu.Item>
              <Menu.Item leftSection={<BroadcastIcon size={16} />} onClick={onCreateSession}>
                {t('livehub.header.createSession')}
              </Menu.Item>
              <Menu.Item leftSection={<PlusIcon size={16} />} onClick={onAddAuction}>
                {t('livehub.header.addAuction')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : (
          <Group gap="xs" wrap="wrap">
            <Button variant="white" color="dark" leftSection={<ArrowLeftIcon size={16} />} onClick={goBack}>
              {t('livehub.backToAdmin')}
            </Button>
            <Button variant="light" color="gray" leftSection={<ListIcon size={16} />} onClick={onManageSessions}>
              {t('livehub.header.manageSessions')}
            </Button>
            <Button color="martillo" leftSection={<BroadcastIcon size={16} />} onClick={onCreateSession}>
              {t('livehub.header.createSession')}
            </Button>
            <Button color="oro" c="dark" leftSection={<PlusIcon size={16} />} onClick={onAddAuction}>
              {t('livehub.header.addAuction')}
            </Button>
          </Group>
        )}
      </Group>
    </Box>
  );
}
