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
  NumberInput,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { MAX_AUCTION_IMAGES } from '../../domain/auctions.js';
import { QUICK_AUCTION_STATUSES, QUICK_TIMER_PRESETS, type QuickAuctionStatus } from '../../domain/live.js';
import { isApiError } from '../api/client';
import { useQuickAuction } from '../api/live-hub';
import { uploadImage } from '../api/uploads';
import { CloseIcon, UploadIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { isImageFile } from './cover';
import { COMPACT_QUERY } from './hub-layout';
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

interface UploadTile {
  key: string;
  name: string;
  preview: string;
  progress: number;
  url: string | null;
  error: string | null;
}

let nextKey = 0;

/**
 * 'Agregar subasta rápida' (SPEC §5 "Quick auction"): a lot created mid-show. The call is made on
 * the loaded session; 'Agregar a la sesión actual' makes it a lot (and, with a timer, the current one).
 */
export function QuickAuctionModal({ sessionId, opened, onClose }: { sessionId: string | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(COMPACT_QUERY) ?? false;
  const [values, setValues] = useState<QuickAuctionValues>(INITIAL_QUICK_VALUES);
  const [tiles, setTiles] = useState<UploadTile[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const quick = useQuickAuction(sessionId ?? '');
  const fieldError = useFieldError(errors);
  const controllers = useRef(new Map<string, AbortController>());

  // Uploads still running when the page goes away are cancelled.
  useEffect(() => {
    const inFlight = controllers.current;
    return () => {
      for (const c of inFlight.values()) c.abort();
    };
  }, []);

  const set = <K extends keyof QuickAuctionValues>(key: K, value: QuickAuctionValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const patchTile = (key: string, change: Partial<UploadTile>) => setTiles((all) => all.map((tile) => (tile.key === key ? { ...tile, ...change } : tile)));

  const addFiles = (files: File[]) => {
    const refused: string[] = [];
    const room = MAX_AUCTION_IMAGES - tiles.length;
    const accepted: File[] = [];
    for (const file of files) {
      if (!isImageFile(file)) refused.push(t('livehub.quick.notImage', { name: file.name }));
      else if (accepted.length < room) accepted.push(file);
      else refused.push(t('livehub.errors.tooManyImages'));
    }
    setRefusals([...new Set(refused)]);
    const fresh = accepted.map((file) => ({ key: `q${nextKey++}`, name: file.name, preview: URL.createObjectURL(file), progress: 0, url: null, error: null }));
    setTiles((all) => [...all, ...fresh]);
    fresh.forEach((tile, i) => {
      const file = accepted[i] as File;
      const controller = new AbortController();
      controllers.current.set(tile.key, controller);
      uploadImage(file, { kind: 'quick_auction', signal: controller.signal, onProgress: (progress) => patchTile(tile.key, { progress }) })
        .then((stored) => patchTile(tile.key, { url: stored.url, progress: 1 }))
        .catch((error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          patchTile(tile.key, {
            error: t('livehub.quick.uploadFailed', {
              name: file.name,
              reason: apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('common.genericError') }),
            }),
          });
        })
        .finally(() => controllers.current.delete(tile.key));
    });
  };

  const removeTile = (key: string) => {
    controllers.current.get(key)?.abort();
    setTiles((all) => {
      const tile = all.find((x) => x.key === key);
      if (tile) URL.revokeObjectURL(tile.preview);
      return all.filter((x) => x.key !== key);
    });
  };

  const isUploading = tiles.some((tile) => tile.url === null && tile.error === null);

  const submit = () => {
    if (!sessionId || quick.isPending || isUploading || !canSubmitQuickAuction(values)) return;
    const images = tiles.filter((tile) => tile.url).map((tile) => tile.url as string);
    const parsed = parseQuickAuction({ ...values, images });
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    quick.mutate(parsed.value, {
      onSuccess: (answer) => {
        notifications.show({ color: 'green', message: t('livehub.quick.created', { id: answer.auction.id }) });
        for (const tile of tiles) URL.revokeObjectURL(tile.preview);
        setTiles([]);
        setRefusals([]);
        setErrors({});
        setValues(RESET_QUICK_VALUES);
      },
    });
  };

  const failure = quick.isError
    ? isApiError(quick.error) && quick.error.status === 401
      ? t('livehub.quick.loginRequired')
      : apiErrorText(quick.error, { networkMessage: t('common.networkError'), fallback: t('livehub.quick.failed') })
    : null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('livehub.quick.title')}
      size="lg"
      fullScreen={isMobile}
      centered={!isMobile}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
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
          <NumberInput
            label={t('livehub.quick.price')}
            value={values.startingPrice}
            onChange={(v) => set('startingPrice', v)}
            min={0}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
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
              {refusals.map((text) => (
                <Text key={text} size="xs" c="red" role="alert">
                  {text}
                </Text>
              ))}
              {tiles.length > 0 && (
                <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs">
                  {tiles.map((tile, index) => (
                    <Box key={tile.key} pos="relative">
                      <Image src={tile.preview} alt={t('livehub.quick.imageAlt', { index: index + 1 })} radius="sm" h={72} fit="cover" />
                      <ActionIcon
                        pos="absolute"
                        top={2}
                        right={2}
                        size="sm"
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
              size="xs"
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
              size="xs"
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
            <Button variant="default" onClick={onClose}>
              {t('livehub.quick.cancel')}
            </Button>
            <Button type="submit" disabled={!sessionId || isUploading || !canSubmitQuickAuction(values)} loading={quick.isPending}>
              {t('livehub.quick.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
