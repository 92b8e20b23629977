import { Badge, Tooltip } from '@mantine/core';
import { usePublicConfig } from '../api/config';
import { useTranslation } from '../i18n';

/** 'Modo desarrollo' when the server runs its development sign-in, so nobody mistakes it for production. */
export function DevModeBadge() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  if (config.data?.signIn !== 'development') return null;
  return (
    <Tooltip label={t('common.devModeHint')} withArrow>
      <Badge color="oro" variant="filled" c="dark" size="sm" tabIndex={0}>
        {t('common.devMode')}
      </Badge>
    </Tooltip>
  );
}
