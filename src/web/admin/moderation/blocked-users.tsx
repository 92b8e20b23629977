import { Alert, Button, EmptyState, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { CompanyBlock } from '../../../domain/chat.js';
import { useCompanyBlocks, useUnblockUser } from '../../api/company-moderation';
import { LockIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';

/** The users blocked from the company's shows, newest first, each with 'Desbloquear' (which asks first). */
export function BlockedUsers({ companyId, isCompact }: { companyId: string; isCompact: boolean }) {
  const { t } = useTranslation();
  const list = useCompanyBlocks(companyId);
  const [unblocking, setUnblocking] = useState<CompanyBlock | null>(null);

  return (
    <Stack gap="md">
      <Text size="sm">{t('companies.moderation.blocks.hint')}</Text>
      {list.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('companies.moderation.blocks.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {apiErrorText(list.error, { networkMessage: t('common.networkError'), fallback: t('companies.moderation.blocks.loadFailed') })}
            </Text>
            <Button size="xs" variant="outline" color="red" onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : !list.data ? (
        <Group gap="sm" py="md" justify="center" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('common.loading')}</Text>
        </Group>
      ) : list.data.items.length === 0 ? (
        <EmptyState
          icon={<LockIcon size={28} />}
          withIndicatorBackground
          title={t('companies.moderation.blocks.empty')}
          description={t('companies.moderation.blocks.emptyHint')}
          py="md"
          role="status"
        />
      ) : (
        <BlocksTable blocks={list.data.items} isCompact={isCompact} onUnblock={setUnblocking} />
      )}
      <UnblockModal companyId={companyId} block={unblocking} onClose={() => setUnblocking(null)} />
    </Stack>
  );
}

function BlocksTable({ blocks, isCompact, onUnblock }: { blocks: CompanyBlock[]; isCompact: boolean; onUnblock: (b: CompanyBlock) => void }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={isCompact ? 560 : 720}>
      <Table striped verticalSpacing="xs" aria-label={t('companies.moderation.blocks.caption')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('companies.moderation.blocks.columns.name')}</Table.Th>
            <Table.Th>{t('companies.moderation.blocks.columns.email')}</Table.Th>
            <Table.Th>{t('companies.moderation.blocks.columns.when')}</Table.Th>
            <Table.Th>{t('companies.moderation.blocks.columns.by')}</Table.Th>
            <Table.Th>{t('companies.moderation.blocks.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {blocks.map((block) => (
            <Table.Tr key={block.userId}>
              <Table.Td>{block.name}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{block.email}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(block.createdAt)}</Table.Td>
              <Table.Td>{block.blockedBy ?? t('companies.moderation.blocks.unknownBlocker')}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => onUnblock(block)}
                  aria-label={t('companies.moderation.blocks.unblockLabel', { name: block.name })}
                >
                  {t('companies.moderation.blocks.unblock')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Asks before unblocking; sits on the 'Moderación' stack so Escape closes only this window. */
function UnblockModal({ companyId, block, onClose }: { companyId: string; block: CompanyBlock | null; onClose: () => void }) {
  const { t } = useTranslation();
  const unblock = useUnblockUser(companyId);
  const [error, setError] = useState<string | null>(null);
  // Kept while the window fades out, so its text does not blank.
  const [shown, setShown] = useState<CompanyBlock | null>(block);
  if (block && block !== shown) setShown(block);

  const close = () => {
    if (unblock.isPending) return;
    setError(null);
    onClose();
  };

  async function confirm() {
    if (!block || unblock.isPending) return;
    setError(null);
    try {
      await unblock.mutateAsync(block.userId);
      notifications.show({ color: 'green', message: t('companies.moderation.blocks.unblocked', { name: block.name }) });
      onClose();
    } catch (err) {
      setError(apiErrorText(err, { networkMessage: t('common.networkError'), fallback: t('companies.moderation.blocks.unblockFailed') }));
    }
  }

  return (
    <Modal
      stackId="moderation-unblock"
      opened={block !== null}
      onClose={close}
      title={t('companies.moderation.blocks.confirmTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        {shown && (
          <div>
            <Text fw={600}>{shown.name}</Text>
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {shown.email}
            </Text>
          </div>
        )}
        <Text size="sm">{t('companies.moderation.blocks.confirmBody')}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          {/* The safe choice takes the focus first. */}
          <Button variant="default" onClick={close} disabled={unblock.isPending} data-autofocus>
            {t('companies.moderation.blocks.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={unblock.isPending}>
            {t('companies.moderation.blocks.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
