import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Checkbox,
  FileButton,
  Group,
  Image,
  Input,
  Modal,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MAX_AUCTION_IMAGES } from '../../domain/auctions.js';
import { QUICK_AUCTION_STATUSES, QUICK_TIMER_PRESETS, type QuickAuctionStatus } from '../../domain/live.js';
import { isApiError } from '../api/client';
import { isSessionEndedError, useCachedSession, useQuickAuction } from '../api/live-hub';
import { AmountInput } from '../components/amount-input';
import { CloseIcon, UploadIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { PHONE_CONTROLS_CLASS, useIsPhoneHub } from './hub-layout';
import { DiscardPrompt, ReopenPrompt, useAskReopen, useDiscardGuard } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { WindowAutoAdvance } from './phone/phone-sheet';
import {
  canSubmitQuickAuction,
  INITIAL_QUICK_VALUES,
  parseQuickAuction,
  presetToValue,
  type QuickAuctionValues,
  RESET_QUICK_VALUES,
  valueToPreset,
} from './quick-auction-form';
import { useFieldError } from './session-fields';
import type { FieldErrors } from './session-form';
import { useQuickUploads } from './use-quick-uploads';
import { useSubmission } from './use-submission';

/**
 * 'Agregar subasta rápida' (SPEC §5 "Quick auction"): a lot created mid-show. The call is made on
 * the loaded session; 'Agregar a la sesión actual' makes it a lot (and, with a timer, the current
 * one). The form locks in the click that sends it and a retry carries the same Idempotency-Key, so
 * a double click makes one auction; on an ended session it asks before opening it again. After
 * 'Crear subasta' it closes, with its toast, and opens reset for the next one (SPEC §5).
 */
export function QuickAuctionModal({ sessionId, opened, onClose }: { sessionId: string | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isPhone = useIsPhoneHub();
  const [values, setValues] = useState<QuickAuctionValues>(INITIAL_QUICK_VALUES);
  // What the form starts from (after a success: status active): it is dirty while it differs.
  const [baseline, setBaseline] = useState<QuickAuctionValues>(INITIAL_QUICK_VALUES);
  const [errors, setErrors] = useState<FieldErrors>({});
  const quick = useQuickAuction(sessionId ?? '');
  const session = useCachedSession(sessionId);
  const uploads = useQuickUploads();
  const submission = useSubmission();
  const reopen = useAskReopen();
  const fieldError = useFieldError(errors);
  const { tiles, isUploading } = uploads;
  const isDirty = !submission.isLocked && (JSON.stringify(values) !== JSON.stringify(baseline) || tiles.length > 0);
  const guard = useDiscardGuard({ opened, isDirty, onClose });

  const set = <K extends keyof QuickAuctionValues>(key: K, value: QuickAuctionValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    submission.forget();
  };
  const addFiles = (files: File[]) => {
    submission.forget();
    uploads.addFiles(files);
  };
  const removeTile = (key: string) => {
    submission.forget();
    uploads.removeTile(key);
  };

  const submit = async (opts: { reopen?: boolean } = {}) => {
    if (!sessionId || submission.isLocked || isUploading || !canSubmitQuickAuction(values)) return;
    const parsed = parseQuickAuction({ ...values, images: uploads.urls });
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    let isReopen = opts.reopen ?? false;
    // Known ended: ask before a new lot opens it again (the server would refuse without `reopen`).
    if (!isReopen && values.addToSession && session?.session.status === 'ended') {
      if (!(await reopen.ask())) return;
      isReopen = true;
    }
    const key = submission.begin(isReopen ? { ...parsed.value, reopen: true } : parsed.value);
    if (!key) return;
    quick.mutate(
      { input: parsed.value, key, reopen: isReopen },
      {
        onSuccess: (answer) => {
          submission.end('success');
          notifications.show({ color: 'green', message: t('livehub.quick.created', { id: answer.auction.id }) });
          uploads.clear();
          setErrors({});
          setValues(RESET_QUICK_VALUES);
          setBaseline(RESET_QUICK_VALUES);
          // The lot is made: back to the show (the form waits, reset, for the next one).
          onClose();
        },
        onError: async (error) => {
          submission.end('failure');
          // Someone ended the session meanwhile: ask, then send again with `reopen`.
          if (!isReopen && isSessionEndedError(error)) {
            quick.reset();
            if (await reopen.ask()) void submit({ reopen: true });
          }
        },
      },
    );
  };

  const failure = quick.isError
    ? isApiError(quick.error) && quick.error.status === 401
      ? t('livehub.quick.loginRequired')
      : apiErrorText(quick.error, { networkMessage: t('common.networkError'), fallback: t('livehub.quick.failed') })
    : null;

  return (
    <>
      <Modal
        stackId={HUB_WINDOW.quick}
        opened={opened}
        onClose={guard.requestClose}
        title={t('livehub.quick.title')}
        size="lg"
        fullScreen={isPhone}
        centered={!isPhone}
        className={isPhone ? PHONE_CONTROLS_CLASS : undefined}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <WindowAutoAdvance sessionId={sessionId} />
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <fieldset disabled={submission.isLocked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="sm">
              {!sessionId && (
                <Alert color="yellow" variant="light" role="status">
                  {t('livehub.quick.needsSession')}
                </Alert>
              )}
              <TextInput
                label={t('livehub.quick.name')}
                value={values.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                maxLength={150}
                required
                error={fieldError('name')}
                data-autofocus
              />
              <AmountInput
                label={t('livehub.quick.price')}
                value={values.startingPrice}
                onChange={(v) => set('startingPrice', v)}
                required
                error={fieldError('startingPrice')}
              />
              <Input.Wrapper label={t('livehub.quick.images')} description={t('livehub.quick.imagesHint')} error={fieldError('images')}>
                <Stack gap="xs" mt={4}>
                  <Group>
                    <FileButton onChange={addFiles} accept="image/*" multiple disabled={tiles.length >= MAX_AUCTION_IMAGES}>
                      {(props) => (
                        <Button {...props} variant="light" leftSection={<UploadIcon size={16} />}>
                          {t('livehub.quick.addImages')}
                        </Button>
                      )}
                    </FileButton>
                  </Group>
                  {uploads.refusals.map((text) => (
                    <Text key={text} size="xs" c="red" role="alert">
                      {text}
                    </Text>
                  ))}
                  {tiles.length > 0 && (
                    <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs">
                      {tiles.map((tile, index) => (
                        <Box key={tile.key} pos="relative">
                          <Image src={tile.preview} alt={t('livehub.quick.imageAlt', { index: index + 1 })} radius="sm" h={isPhone ? 104 : 72} fit="cover" />
                          <ActionIcon
                            pos="absolute"
                            top={2}
                            right={2}
                            size={isPhone ? 'xl' : 'sm'}
                            color="dark"
                            variant="filled"
                            aria-label={t('livehub.quick.removeImage', { index: index + 1 })}
                            onClick={() => removeTile(tile.key)}
                          >
                            <CloseIcon size={12} />
                          </ActionIcon>
                          {tile.url === null && tile.error === null && (
                            <Progress value={tile.progress * 100} size="sm" mt={4} aria-label={t('livehub.quick.uploading', { name: tile.name })} />
                          )}
                          {tile.error && (
                            <Text size="xs" c="red" role="alert" lineClamp={3}>
                              {tile.error}
                            </Text>
                          )}
                        </Box>
                      ))}
                    </SimpleGrid>
                  )}
                </Stack>
              </Input.Wrapper>
              <Input.Wrapper label={t('livehub.quick.timer')} id="quick-timer">
                <SegmentedControl
                  fullWidth
                  size={isPhone ? 'md' : 'xs'}
                  mt={4}
                  aria-label={t('livehub.quick.timer')}
                  value={presetToValue(values.timerSeconds)}
                  onChange={(v) => set('timerSeconds', valueToPreset(v))}
                  data={QUICK_TIMER_PRESETS.map((p) => ({
                    value: presetToValue(p),
                    label: p === null ? t('livehub.quick.timerNone') : t('livehub.quick.timerSeconds', { seconds: p }),
                  }))}
                />
              </Input.Wrapper>
              <Input.Wrapper label={t('livehub.quick.status')}>
                <SegmentedControl
                  fullWidth
                  size={isPhone ? 'md' : 'xs'}
                  mt={4}
                  aria-label={t('livehub.quick.status')}
                  value={values.status}
                  onChange={(v) => set('status', v as QuickAuctionStatus)}
                  data={QUICK_AUCTION_STATUSES.map((s) => ({ value: s, label: t(`livehub.quick.statuses.${s}`) }))}
                />
              </Input.Wrapper>
              <Checkbox
                label={t('livehub.quick.addToSession')}
                checked={values.addToSession}
                onChange={(e) => set('addToSession', e.currentTarget.checked)}
                disabled={!sessionId}
              />
              {isUploading && (
                <Text size="xs" c="dimmed" role="status">
                  {t('livehub.quick.waitUploads')}
                </Text>
              )}
              {failure && (
                <Alert color="red" variant="light" role="alert" title={t('livehub.quick.failed')}>
                  {failure}
                </Alert>
              )}
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={guard.requestClose}>
                  {t('livehub.quick.cancel')}
                </Button>
                <Button type="submit" disabled={!sessionId || isUploading || !canSubmitQuickAuction(values)} loading={submission.isLocked}>
                  {t('livehub.quick.submit')}
                </Button>
              </Group>
            </Stack>
          </fieldset>
        </form>
      </Modal>
      <DiscardPrompt stackId={HUB_WINDOW.quickDiscard} {...guard.prompt} />
      <ReopenPrompt stackId={HUB_WINDOW.quickReopen} {...reopen.prompt} />
    </>
  );
}
