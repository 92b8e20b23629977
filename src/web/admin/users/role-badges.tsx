import { Badge, Group, Text } from '@mantine/core';
import type { Role } from '../../../domain/role-rules.js';
import { useTranslation } from '../../i18n';
import { orderedRoles, ROLE_COLORS } from './user-format';

export function RoleBadges({ roles }: { roles: readonly Role[] }) {
  const { t } = useTranslation();
  const ordered = orderedRoles(roles);
  if (ordered.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('users.noRoles')}
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {ordered.map((role) => (
        <Badge key={role} color={ROLE_COLORS[role]} variant="light" size="sm">
          {t(`users.roles.${role}`)}
        </Badge>
      ))}
    </Group>
  );
}
