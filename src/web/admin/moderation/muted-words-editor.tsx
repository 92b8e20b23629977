import { Alert, Button, Group, List, Loader, Pill, PillsInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { MUTED_WORDS_MAX } from '../../../domain/chat.js';
import { isApiError } from '../../api/client';
import { useMutedWords, useSaveMutedWords } from '../../api/company-moderation';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { refusedWords, type WordRefusal, wordsFromTyping } from './muted-words-draft';

/** The company's muted words: loaded, then edited as a list of tags and saved whole. */
export function MutedWordsEditor({ companyId }: { companyId: string }) {
  const { t } = useTranslation();
  const words = useMutedWords(companyId);
  if (words.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('companies.moderation.mutedWords.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {apiErrorText(words.error, { networkMessage: t('common.networkError'), fallback: t('companies.moderation.mutedWords.loadFailed') })}
          </Text>
          <Button size="xs" variant="outline" color="red" onClick={() => void words.refetch()} loading={words.isFetching}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!words.data) {
    return (
      <Group gap="sm" py="md" justify="center" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden="true" />
        <Text>{t('common.loading')}</Text>
      </Group>
    );
  }
  return <MutedWordsForm companyId={companyId} saved={words.data.words} />;
}

function MutedWordsForm({ companyId, saved }: { companyId: string; saved: string[] }) {
  const { t } = useTranslation();
  const save = useSaveMutedWords(companyId);
  const [draft, setDraft] = useState<string[]>(saved);
  const [typing, setTyping] = useState('');
  const [refusals, setRefusals] = useState<WordRefusal[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const isDirty = draft.length !== saved.length || draft.some((w, i) => w !== saved[i]);
  const refusedText = new Set(refusals.map((r) => r.word));

  const add = () => {
    const added = wordsFromTyping(typing);
    setTyping('');
    if (added.length > 0) setDraft((current) => [...current, ...added]);
    setFormError(null);
  };
  const remove = (index: number) => {
    const removed = draft[index];
    const next = draft.filter((_, i) => i !== index);
    setDraft(next);
    // The word's refusal goes with it, unless the same word is still in the list.
    if (removed !== undefined && !next.includes(removed)) setRefusals((current) => current.filter((r) => r.word !== removed));
  };

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && typing === '' && draft.length > 0) {
      event.preventDefault();
      remove(draft.length - 1);
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    // A word still being typed is part of what the user means to save.
    const list = [...draft, ...wordsFromTyping(typing)];
    setDraft(list);
    setTyping('');
    setRefusals([]);
    setFormError(null);
    try {
      const answer = await save.mutateAsync(list);
      setDraft(answer.words);
      notifications.show({ color: 'green', message: t('companies.moderation.mutedWords.saved') });
    } catch (error) {
      const refused = isApiError(error) && error.status === 400 ? refusedWords(list, error.fields) : null;
      if (refused && refused.words.length > 0) setRefusals(refused.words);
      if (refused?.list) setFormError(refused.list);
      else if (!refused || refused.words.length === 0)
        setFormError(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('companies.moderation.mutedWords.saveFailed') }));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <PillsInput
            flex={1}
            label={t('companies.moderation.mutedWords.label')}
            description={t('companies.moderation.mutedWords.description')}
            // Not Mantine's error state, which paints what is being typed in a red too pale to read: a red border, and the list below.
            styles={refusals.length > 0 ? { input: { borderColor: 'var(--mantine-color-error)' } } : undefined}
          >
            <Pill.Group>
              {draft.map((word, index) => {
                const isRefused = refusedText.has(word);
                return (
                  <Pill
                    // Words may repeat while the draft is not saved: the place tells them apart.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list is edited by position.
                    key={`${index}:${word}`}
                    withRemoveButton
                    onRemove={() => remove(index)}
                    // Mantine hides the remove button from assistive tech and the keyboard (Backspace removes in its TagsInput): here each is a real button.
                    removeButtonProps={{ 'aria-label': t('companies.moderation.mutedWords.remove', { word }), 'aria-hidden': false, tabIndex: 0 }}
                    data-refused={isRefused || undefined}
                    bg={isRefused ? 'var(--mantine-color-red-light)' : undefined}
                    c={isRefused ? 'var(--mantine-color-red-light-color)' : undefined}
                    title={isRefused ? t('companies.moderation.mutedWords.wordRefused', { word }) : undefined}
                  >
                    {word}
                  </Pill>
                );
              })}
              <PillsInput.Field
                value={typing}
                onChange={(e) => setTyping(e.currentTarget.value)}
                onKeyDown={handleKeyDown}
                // Escape clears what is being typed, not the whole window.
                data-mantine-stop-propagation={typing !== '' || undefined}
                placeholder={t('companies.moderation.mutedWords.placeholder')}
                aria-label={t('companies.moderation.mutedWords.placeholder')}
                aria-invalid={refusals.length > 0 || undefined}
                aria-describedby={refusals.length > 0 ? 'muted-words-refusals' : undefined}
                autoComplete="off"
                spellCheck={false}
              />
            </Pill.Group>
          </PillsInput>
          <Button variant="default" onClick={add} disabled={typing.trim() === ''}>
            {t('companies.moderation.mutedWords.add')}
          </Button>
        </Group>
        <Text size="xs" c={draft.length > MUTED_WORDS_MAX ? 'red' : 'dimmed'}>
          {draft.length === 0
            ? t('companies.moderation.mutedWords.empty')
            : t('companies.moderation.mutedWords.count', { count: draft.length, max: MUTED_WORDS_MAX })}
        </Text>
        {refusals.length > 0 && (
          <Alert color="red" variant="light" role="alert" id="muted-words-refusals" title={t('companies.moderation.mutedWords.refused')}>
            <List size="sm">
              {refusals.map((r) => (
                <List.Item key={r.index}>{r.message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {isDirty ? t('companies.moderation.mutedWords.unsaved') : ''}
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              disabled={!isDirty || save.isPending}
              onClick={() => {
                setDraft(saved);
                setTyping('');
                setRefusals([]);
                setFormError(null);
              }}
            >
              {t('companies.moderation.mutedWords.discard')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!isDirty && typing.trim() === ''}>
              {t('companies.moderation.mutedWords.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
