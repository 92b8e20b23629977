import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from '../../i18n';

interface UsersPagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  isDisabled: boolean;
}

/** Anterior / 'Página X de Y' / Siguiente, like the auction table (SPEC §2). */
export function UsersPager({ page, totalPages, onChange, isDisabled }: UsersPagerProps) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('users.pagination.label')} justify="center" gap="sm">
      <Button variant="default" size="xs" onClick={() => onChange(page - 1)} disabled={isDisabled || page <= 1}>
        {t('users.pagination.previous')}
      </Button>
      <Text size="sm" aria-live="polite">
        {t('users.pagination.page', { page, total: totalPages })}
      </Text>
      <Button variant="default" size="xs" onClick={() => onChange(page + 1)} disabled={isDisabled || page >= totalPages}>
        {t('users.pagination.next')}
      </Button>
    </Group>
  );
}
