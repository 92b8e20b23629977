import { ActionIcon, CheckIcon, Code, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import type { UserListItem } from '../../../domain/users.js';
import { ZUserCompanyInput } from '../../../domain/users.js';
import { useSetUserCompany } from '../../api/users';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { userLabel } from './user-format';

const COMPANY_ID_MAX = 64;

interface UserCompanyFieldProps {
  user: UserListItem;
  /** Only a platform admin may change it (SPEC §6); anyone else sees it read-only. */
  isEditable: boolean;
}

/** The user's companyId, edited in place: Enter or the check button saves, an empty value clears it. */
export function UserCompanyField({ user, isEditable }: UserCompanyFieldProps) {
  const { t } = useTranslation();
  const save = useSetUserCompany();
  const stored = user.companyId ?? '';
  const [draft, setDraft] = useState(stored);
  const [error, setError] = useState<string | null>(null);
  // A saved or refetched value replaces the draft (keeps focus in the input, unlike a remount).
  const [shown, setShown] = useState(stored);
  if (shown !== stored) {
    setShown(stored);
    setDraft(stored);
    setError(null);
  }
  const name = userLabel(user);
  const isDirty = draft.trim() !== stored;

  if (!isEditable) {
    return stored ? (
      <Code>{stored}</Code>
    ) : (
      <Text size="sm" c="dimmed">
        {t('users.noValue')}
      </Text>
    );
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending || !isDirty) return;
    const parsed = ZUserCompanyInput.safeParse({ companyId: draft });
    if (!parsed.success) {
      setError(t(`users.errors.${parsed.error.issues[0]?.message === 'tooLong' ? 'tooLong' : 'companyIdInvalid'}`));
      return;
    }
    setError(null);
    try {
      const updated = await save.mutateAsync({ uid: user.uid, companyId: parsed.data.companyId });
      notifications.show({
        color: 'green',
        title: t('users.companyIdSaved'),
        message: updated.companyId ? t('users.companyIdSavedMessage', { name, companyId: updated.companyId }) : t('users.companyIdClearedMessage', { name }),
      });
    } catch (err) {
      const reason = failureReason(err, { field: 'companyId', networkMessage: t('common.networkError') });
      setError(reason ? t('users.companyIdFailedReason', { reason }) : t('users.companyIdFailed'));
    }
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && isDirty && !save.isPending) {
      event.preventDefault();
      setDraft(stored);
      setError(null);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <TextInput
          size="xs"
          flex={1}
          miw={120}
          aria-label={t('users.companyIdLabel', { name })}
          placeholder={t('users.noCompanyId')}
          value={draft}
          onChange={(event) => {
            setDraft(event.currentTarget.value);
            setError(null);
          }}
          onKeyDown={handleKeyDown}
          // While there is an unsaved edit, Escape undoes it instead of closing 'Usuarios'.
          data-mantine-stop-propagation={isDirty ? 'true' : undefined}
          error={error}
          readOnly={save.isPending}
          maxLength={COMPANY_ID_MAX}
          autoComplete="off"
          spellCheck={false}
        />
        <Tooltip label={t('users.save')} withArrow>
          <ActionIcon
            type="submit"
            size="input-xs"
            variant={isDirty ? 'filled' : 'light'}
            aria-label={t('users.saveCompanyId', { name })}
            loading={save.isPending}
            disabled={!isDirty || save.isPending}
          >
            <CheckIcon size={12} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </form>
  );
}
