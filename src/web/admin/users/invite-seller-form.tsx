import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { ZInvitationInput } from '../../../domain/invitations.js';
import { isApiError } from '../../api/client';
import { useCompanies } from '../../api/companies';
import { useCreateInvitation } from '../../api/invitations';
import { isPlatformAdmin } from '../../api/me';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { INVITATIONS_PATH } from '../../routes';

/** Enough for a picker; the platform's companies are a short list. */
const COMPANY_OPTIONS_LIMIT = 100;

/**
 * 'Invitar vendedor': an e-mail, and for a platform admin the company. What was typed stays in the
 * field until the server accepts it; a refusal shows the server's Spanish reason under the field.
 * Martillo sends no message itself: the admin passes on the address where the person answers.
 */
export function InviteSellerForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const isPlatform = isPlatformAdmin(me);
  const companies = useCompanies({ search: '', page: 1, pageSize: COMPANY_OPTIONS_LIMIT }, isPlatform);
  const create = useCreateInvitation();
  const [email, setEmail] = useState('');
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ email?: string; companyId?: string; form?: string }>({});
  const link = `${window.location.origin}${INVITATIONS_PATH}`;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = ZInvitationInput.safeParse({ email, ...(isPlatform && companyId ? { companyId } : {}) });
    const next: typeof errors = {};
    if (!parsed.success) {
      const code = parsed.error.issues[0]?.message;
      next.email = t(`users.invitations.errors.${code === 'emailRequired' ? 'emailRequired' : 'email'}`);
    }
    if (isPlatform && !companyId) next.companyId = t('users.invitations.errors.companyRequired');
    setErrors(next);
    if (!parsed.success || next.companyId) return;
    try {
      const created = await create.mutateAsync(parsed.data);
      setEmail('');
      notifications.show({
        color: 'green',
        title: t('users.invitations.sent'),
        message: t('users.invitations.sentMessage', { email: created.email, company: created.companyName ?? created.companyId, link }),
      });
    } catch (err) {
      const reason = failureReason(err, { field: 'email', networkMessage: t('common.networkError') });
      const field = isApiError(err) && err.fields.companyId ? 'companyId' : 'email';
      setErrors(reason ? { [field]: reason } : { form: t('users.invitations.failed') });
    }
  }

  return (
    <Paper withBorder p="md">
      <form onSubmit={handleSubmit} noValidate aria-labelledby="invite-seller-title">
        <Stack gap="sm">
          <Title order={3} size="h5" id="invite-seller-title">
            {t('users.invitations.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('users.invitations.help', { link })}
          </Text>
          {!isPlatform && <Text size="sm">{t('users.invitations.ownCompany', { company: me.companyName ?? me.companyId })}</Text>}
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label={t('users.invitations.emailLabel')}
              placeholder={t('users.invitations.emailPlaceholder')}
              type="email"
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setErrors((prev) => ({ ...prev, email: undefined, form: undefined }));
              }}
              error={errors.email}
              autoComplete="off"
              spellCheck={false}
              maxLength={254}
              flex={1}
              miw={220}
            />
            {isPlatform && (
              <Select
                label={t('users.invitations.companyLabel')}
                placeholder={t('users.invitations.companyPlaceholder')}
                data={(companies.data?.items ?? []).map((c) => ({ value: c.id, label: c.name === c.id ? c.id : `${c.name} (${c.id})` }))}
                value={companyId}
                onChange={(value) => {
                  setCompanyId(value);
                  setErrors((prev) => ({ ...prev, companyId: undefined, form: undefined }));
                }}
                error={errors.companyId ?? (companies.isError ? t('users.invitations.companyLoadFailed') : undefined)}
                searchable
                nothingFoundMessage={t('users.invitations.noCompanies')}
                miw={220}
              />
            )}
            <Button type="submit" loading={create.isPending} mt={26}>
              {t('users.invitations.send')}
            </Button>
          </Group>
          {errors.form && (
            <Alert color="red" variant="light" role="alert">
              {errors.form}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
