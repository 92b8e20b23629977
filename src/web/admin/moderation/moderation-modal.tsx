import { Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { useTranslation } from '../../i18n';
import { BlockedUsers } from './blocked-users';
import { ModerationCompanyPicker } from './company-picker';
import { moderationEntry } from './moderation-entry';
import { MutedWordsEditor } from './muted-words-editor';

export interface ModerationModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me;
}

/**
 * 'Moderación': the users blocked from the company's shows (blocked from a show's chat by its
 * moderators), with 'Desbloquear', and the company's muted words.
 */
export function ModerationModal({ opened, onClose, me }: ModerationModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  const entry = moderationEntry(me);
  const isOpen = opened && entry !== null;

  return (
    // The stack lets the unblock confirmation sit on top: Escape and focus belong to the top window only.
    <Modal.Stack>
      <Modal
        stackId="moderation"
        opened={isOpen}
        onClose={onClose}
        title={t('companies.moderation.title')}
        size="60rem"
        fullScreen={isMobile}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {isOpen && <ModerationBody me={me} pickCompany={entry === 'all'} isCompact={isMobile} />}
      </Modal>
    </Modal.Stack>
  );
}

function ModerationBody({ me, pickCompany, isCompact }: { me: Me; pickCompany: boolean; isCompact: boolean }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | null>(null);
  const companyId = pickCompany ? picked : me.companyId;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('companies.moderation.intro')}
      </Text>
      {pickCompany && <ModerationCompanyPicker value={picked} onChange={setPicked} />}
      {companyId === null ? (
        <Text size="sm">{t('companies.moderation.chooseCompany')}</Text>
      ) : (
        // keepMounted off: each tab reads fresh; a new company starts both tabs anew.
        <Tabs key={companyId} defaultValue="blocks" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="blocks">{t('companies.moderation.tabs.blocks')}</Tabs.Tab>
            <Tabs.Tab value="mutedWords">{t('companies.moderation.tabs.mutedWords')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="blocks">
            <BlockedUsers companyId={companyId} isCompact={isCompact} />
          </Tabs.Panel>
          <Tabs.Panel value="mutedWords">
            <MutedWordsEditor companyId={companyId} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
