import { Alert, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ZModeratorInput } from '../../../domain/chat-inputs.js';
import { useSessionModerators } from '../../api/chat';
import { ActionNoticeLine, useActionNotice } from '../../components/chat/action-notice';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';

/** The session's moderators: the owners (seller, company admins, not removable) and those appointed by e-mail (shown to the owners only). */
export function ModeratorsList({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const { list, add, remove } = useSessionModerators(sessionId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Said in the list, not as a toast: on a phone the list is in a sheet, above any toast.
  const actionNotice = useActionNotice();
  const errorText = (caught: unknown) => apiErrorText(caught, { networkMessage: t('common.networkError'), fallback: t('live.chat.actions.failed') });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZModeratorInput.safeParse({ email });
    if (!parsed.success) {
      setError(t('livehub.chatPanel.moderators.emailInvalid'));
      return;
    }
    setError(null);
    add.mutate(parsed.data.email, {
      onSuccess: () => {
        actionNotice.show(t('livehub.chatPanel.moderators.added', { email: parsed.data.email }));
        setEmail('');
      },
      onError: (caught) => setError(errorText(caught)),
    });
  };

  const items = list.data?.items ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('livehub.chatPanel.moderators.hint')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            flex={1}
            type="email"
            label={t('livehub.chatPanel.moderators.email')}
            placeholder={t('livehub.chatPanel.moderators.emailPlaceholder')}
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-testid="hub-moderator-email"
          />
          <Button type="submit" mt={25} loading={add.isPending} data-testid="hub-moderator-add">
            {t('livehub.chatPanel.moderators.add')}
          </Button>
        </Group>
      </form>
      <ActionNoticeLine notice={actionNotice.notice} />
      {list.isError && !list.data && (
        <Alert color="red" variant="light" role="alert">
          {t('livehub.chatPanel.moderators.loadFailed')}
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('livehub.chatPanel.moderators.empty')}
        </Text>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="hub-moderators">
        {items.map((moderator) => (
          <Group key={moderator.userId} component="li" justify="space-between" gap="xs" wrap="nowrap" data-testid="hub-moderator">
            <Stack gap={0} miw={0}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600} truncate>
                  {moderator.name}
                </Text>
                {moderator.isOwner && (
                  <Badge size="xs" variant="light" tt="none">
                    {t('livehub.chatPanel.moderators.owner')}
                  </Badge>
                )}
              </Group>
              {/* The e-mails are the show's owners' to read; an appointed moderator's list has names only. */}
              {moderator.email && (
                <Text size="xs" c="dimmed" truncate>
                  {moderator.email}
                </Text>
              )}
            </Stack>
            {!moderator.isOwner && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={t('livehub.chatPanel.moderators.removeLabel', { name: moderator.name })}
                loading={remove.isPending && remove.variables === moderator.userId}
                onClick={() => remove.mutate(moderator.userId, { onError: (caught) => actionNotice.show(errorText(caught), 'error') })}
              >
                {t('livehub.chatPanel.moderators.remove')}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
