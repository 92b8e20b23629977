import { Stack, Text } from '@mantine/core';
import type { Me } from '../../domain/api-types.js';
import { useTranslation } from '../i18n';

/** Company name and id from /api/me, each shown only when known (SPEC §2 header). */
export function CompanyInfo({ me, inverted = false }: { me: Me; inverted?: boolean }) {
  const { t } = useTranslation();
  if (!me.companyName && !me.companyId) return null;
  return (
    <Stack gap={0}>
      {me.companyName && (
        <Text size="sm" fw={600} c={inverted ? 'white' : undefined} lineClamp={1}>
          {t('admin.company', { name: me.companyName })}
        </Text>
      )}
      {me.companyId && (
        <Text size="xs" c={inverted ? 'gray.4' : 'dimmed'} lineClamp={1}>
          {t('admin.companyId', { id: me.companyId })}
        </Text>
      )}
    </Stack>
  );
}
