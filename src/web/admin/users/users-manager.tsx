import { Alert, Button, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import type { UserRoleFilter } from '../../../domain/role-rules.js';
import type { UserListItem } from '../../../domain/users.js';
import { isPlatformAdmin } from '../../api/me';
import { useUsers } from '../../api/users';
import { UsersIcon } from '../../components/panel-icons';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n';
import { usePanelWindow } from '../use-panel-window';
import { useSearchDraft } from '../use-search-draft';
import { UserRolesModal } from './user-roles-modal';
import { UsersPager } from './users-pager';
import { UsersTable } from './users-table';
import { UsersToolbar } from './users-toolbar';

/** SPEC §9: page size default 20. */
export const USERS_PAGE_SIZE = 20;

/**
 * The body of 'Usuarios'. Role filter, search and page live in the URL (use-panel-window.ts): each
 * change is a history entry, and Back or a link sets the controls. Changing the filter or the
 * search goes back to page 1.
 */
export function UsersManager({ me, isCompact }: { me: Me; isCompact: boolean }) {
  const { t } = useTranslation();
  const { state, set, setSearch } = usePanelWindow();
  const { role, page, search: query } = state;
  const search = useSearchDraft(query, setSearch);
  const setRole = (next: UserRoleFilter) => {
    if (next !== role) set({ role: next, page: 1 });
  };
  const setPage = (next: number) => set({ page: Math.max(1, next) });

  const users = useUsers({ role, search: query, page, pageSize: USERS_PAGE_SIZE });
  const data = users.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  // Users left the filter (or were edited out of it) while on a later page: step back to the last one.
  useEffect(() => {
    // Fixed in place: no history entry for a page that was never shown.
    if (data && !users.isPlaceholderData && page > totalPages) set({ page: totalPages }, { replace: true });
  }, [data, users.isPlaceholderData, page, totalPages, set]);

  const [rolesUser, setRolesUser] = useState<UserListItem | null>(null);
  const [isRolesOpen, setRolesOpen] = useState(false);

  return (
    <Stack gap="md">
      <UsersToolbar
        role={role}
        onRoleChange={setRole}
        search={search.draft}
        onSearchChange={search.setDraft}
        onSearchSubmit={search.applyNow}
        isCompact={isCompact}
      />
      {users.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('users.loadFailed')}>
          <Button size="xs" variant="outline" color="red" onClick={() => void users.refetch()} loading={users.isFetching}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : !data ? (
        <Group gap="sm" py="xl" justify="center" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('users.loading')}</Text>
        </Group>
      ) : data.items.length === 0 ? (
        <EmptyState icon={<UsersIcon size={28} />} withIndicatorBackground title={t('users.empty')} py="xl" role="status" />
      ) : (
        <Stack gap="sm" aria-busy={users.isFetching} style={{ opacity: users.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('users.total', { count: data.total })}
            </Text>
            {users.isFetching && <Spinner size="xs" label={t('users.loading')} />}
          </Group>
          <UsersTable
            users={data.items}
            meId={me.user.id}
            canEditCompany={isPlatformAdmin(me)}
            isCompact={isCompact}
            onEditRoles={(user) => {
              setRolesUser(user);
              setRolesOpen(true);
            }}
          />
          {data.total > data.pageSize && <UsersPager page={page} totalPages={totalPages} onChange={setPage} isDisabled={users.isPlaceholderData} />}
        </Stack>
      )}
      <UserRolesModal
        me={me}
        user={rolesUser}
        opened={isRolesOpen}
        onClose={() => setRolesOpen(false)}
        onExited={() => {
          if (!isRolesOpen) setRolesUser(null);
        }}
      />
    </Stack>
  );
}
