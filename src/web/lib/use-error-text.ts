import { useCallback } from 'react';
import { useTranslation } from '../i18n';
import { apiErrorText } from './api-errors';

/** The server's Spanish message when it sent one; otherwise our own words for what went wrong. */
export function useErrorText() {
  const { t } = useTranslation();
  return useCallback((error: unknown): string => apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('common.genericError') }), [t]);
}
