import { Alert, Button, Code, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { useCompanies } from '../../api/companies';
import { SearchIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { MAX_SEARCH_LENGTH } from '../panel-url';
import { usePanelWindow } from '../use-panel-window';
import { useSearchDraft } from '../use-search-draft';
import { UsersPager } from '../users/users-pager';
import { companyEntry } from './company-entry';
import { CompanyEditor } from './company-form';

const PAGE_SIZE = 20;

/** 'Empresa' / 'Empresas': the company's name, RFC and razón social, the one source of its name. */
export function CompaniesModal({ opened, onClose, me }: { opened: boolean; onClose: () => void; me: Me }) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  const entry = companyEntry(me);
  const isOpen = opened && entry !== null;
  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      title={entry === 'all' ? t('companies.titleAll') : t('companies.title')}
      size={entry === 'all' ? '50rem' : 'md'}
      fullScreen={isMobile}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {isOpen && (entry === 'all' ? <CompaniesManager /> : <CompanyEditor companyId={me.companyId} onSaved={onClose} />)}
    </Modal>
  );
}

function CompaniesManager() {
  const { t } = useTranslation();
  // Search and page live in the URL (use-panel-window.ts): each change is a history entry.
  const { state, set, setSearch } = usePanelWindow();
  const { page } = state;
  const search = useSearchDraft(state.search, setSearch);
  const setPage = (next: number) => set({ page: Math.max(1, next) });
  const [editing, setEditing] = useState<string | null>(null);
  const list = useCompanies({ search: state.search, page, pageSize: PAGE_SIZE }, editing === null);

  if (editing) {
    return (
      <Stack gap="sm">
        <Group>
          <Button variant="subtle" size="xs" onClick={() => setEditing(null)}>
            {t('companies.back')}
          </Button>
        </Group>
        <CompanyEditor companyId={editing} onSaved={() => setEditing(null)} />
      </Stack>
    );
  }

  const totalPages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Stack gap="sm">
      <TextInput
        leftSection={<SearchIcon size={16} />}
        placeholder={t('companies.searchPlaceholder')}
        aria-label={t('companies.searchPlaceholder')}
        value={search.draft}
        onChange={(e) => search.setDraft(e.currentTarget.value)}
        onKeyDown={search.onKeyDown}
        maxLength={MAX_SEARCH_LENGTH}
      />
      {list.isError && <Alert color="red">{apiErrorText(list.error, { networkMessage: t('common.networkError'), fallback: t('companies.loadFailed') })}</Alert>}
      {list.data && list.data.items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('companies.empty')}
        </Text>
      )}
      {list.data && list.data.items.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('companies.columns.name')}</Table.Th>
                <Table.Th>{t('companies.columns.id')}</Table.Th>
                <Table.Th>{t('companies.columns.rfc')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('companies.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((company) => (
                <Table.Tr key={company.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {company.name}
                    </Text>
                    {company.legalName && (
                      <Text size="xs" c="dimmed">
                        {company.legalName}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Code>{company.id}</Code>
                  </Table.Td>
                  <Table.Td>{company.rfc ?? '—'}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" onClick={() => setEditing(company.id)} aria-label={t('companies.editLabel', { name: company.name })}>
                      {t('companies.edit')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <UsersPager page={page} totalPages={totalPages} onChange={setPage} isDisabled={list.isFetching} />
    </Stack>
  );
}
