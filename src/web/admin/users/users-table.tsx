import { Badge, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatWhatsapp } from '../../../domain/phone.js';
import type { UserListItem } from '../../../domain/users.js';
import { useTranslation } from '../../i18n';
import { RoleBadges } from './role-badges';
import { UserCompanyField } from './user-company-field';
import { userDisplayName, userLabel } from './user-format';

interface UsersTableProps {
  users: UserListItem[];
  meId: string;
  canEditCompany: boolean;
  onEditRoles: (user: UserListItem) => void;
  /** Phones get one card per user instead of a wide table. */
  isCompact: boolean;
}

/** The 'Usuarios' list: name, email, WhatsApp ('+52 55 1234 5678'), roles, company and actions. */
export function UsersTable({ users, meId, canEditCompany, onEditRoles, isCompact }: UsersTableProps) {
  const { t } = useTranslation();

  if (isCompact) {
    return (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('users.listLabel')}>
        {users.map((user) => (
          <Paper component="li" key={user.uid} withBorder p="sm" aria-label={userLabel(user)}>
            <Stack gap="xs">
              <UserName user={user} isSelf={user.uid === meId} />
              <Field label={t('users.columns.email')}>{user.email}</Field>
              <Field label={t('users.columns.whatsapp')}>{formatWhatsapp(user.whatsapp) ?? t('users.noValue')}</Field>
              <RoleBadges roles={user.roles} />
              <Field label={t('users.columns.companyId')}>
                <UserCompanyField user={user} isEditable={canEditCompany} />
              </Field>
              <EditRolesButton user={user} onClick={() => onEditRoles(user)} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Table.ScrollContainer minWidth={880}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('users.listLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('users.columns.name')}</Table.Th>
            <Table.Th>{t('users.columns.email')}</Table.Th>
            <Table.Th>{t('users.columns.whatsapp')}</Table.Th>
            <Table.Th>{t('users.columns.roles')}</Table.Th>
            <Table.Th w={220}>{t('users.columns.companyId')}</Table.Th>
            <Table.Th>{t('users.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.uid}>
              <Table.Td>
                <UserName user={user} isSelf={user.uid === meId} />
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{user.email}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatWhatsapp(user.whatsapp) ?? t('users.noValue')}</Table.Td>
              <Table.Td>
                <RoleBadges roles={user.roles} />
              </Table.Td>
              <Table.Td>
                <UserCompanyField user={user} isEditable={canEditCompany} />
              </Table.Td>
              <Table.Td>
                <EditRolesButton user={user} onClick={() => onEditRoles(user)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function UserName({ user, isSelf }: { user: UserListItem; isSelf: boolean }) {
  const { t } = useTranslation();
  const name = userDisplayName(user);
  return (
    <Box>
      <Group gap={6} wrap="nowrap">
        <Text fw={500} c={name ? undefined : 'dimmed'} fs={name ? undefined : 'italic'}>
          {name ?? t('users.noName')}
        </Text>
        {isSelf && (
          <Badge size="xs" variant="outline" color="gray">
            {t('users.you')}
          </Badge>
        )}
      </Group>
      {/* A company named after its id (never renamed) would say the same thing twice. */}
      {user.companyName && user.companyName !== user.companyId && (
        <Text size="xs" c="dimmed">
          {user.companyName}
        </Text>
      )}
    </Box>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Box fz="sm" style={{ wordBreak: 'break-all' }}>
        {children}
      </Box>
    </Box>
  );
}

function EditRolesButton({ user, onClick }: { user: UserListItem; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button size="xs" variant="light" onClick={onClick} aria-label={t('users.editRolesFor', { name: userLabel(user) })}>
      {t('users.editRoles')}
    </Button>
  );
}
