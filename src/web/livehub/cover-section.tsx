import { Alert, Box, Button, Center, FileButton, Group, Image, Modal, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { LiveSessionData } from '../api/live';
import { useUpdateSession } from '../api/live-hub';
import { uploadImage } from '../api/uploads';
import { PhotoIcon } from '../components/icons';
import { TrashIcon, UploadIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { coverFileProblem, lotImageChoices } from './cover';
import { CoverCropModal } from './cover-crop-modal';
import { PHONE_CONTROLS_CLASS, useIsPhoneHub } from './hub-layout';
import { HUB_WINDOW } from './hub-windows';

/** The cover of 'Editar Sesión' (SPEC §5): upload and crop, pick a lot's photo, or remove it. */
export function CoverSection({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const isPhone = useIsPhoneHub();
  const update = useUpdateSession();
  // What is being cropped: a chosen file (an object URL of ours) or a lot's photo (its own URL).
  const [crop, setCrop] = useState<{ src: string; isFile: boolean } | null>(null);
  const [isChoosing, setIsChoosing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const sessionId = detail.session.id;
  const cover = detail.session.coverImageUrl;
  const canEdit = detail.canEdit;
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });

  // The object URL of the file being cropped is released when the crop closes.
  useEffect(() => {
    if (!crop?.isFile) return;
    return () => URL.revokeObjectURL(crop.src);
  }, [crop]);

  const choose = (file: File | null) => {
    setProblem(null);
    if (!file) return;
    const issue = coverFileProblem(file);
    if (issue) {
      setProblem(issue === 'tooLarge' ? t('livehub.edit.coverTooLarge') : t('livehub.edit.coverNotImage'));
      return;
    }
    setCrop({ src: URL.createObjectURL(file), isFile: true });
  };

  const saveCropped = async (file: File) => {
    try {
      const stored = await uploadImage(file, { kind: 'session_cover' });
      await update.mutateAsync({ id: sessionId, input: { coverImageUrl: stored.url } });
      notifications.show({ color: 'green', message: t('livehub.edit.coverSaved') });
    } catch (error) {
      throw new Error(errorText(error, t('livehub.edit.coverSaveFailed')));
    }
  };

  // A lot's photo is cropped to 9:16 as a chosen file is: the chooser closes and 'Ajustar portada' opens.
  const pickExisting = (url: string) => {
    setProblem(null);
    setIsChoosing(false);
    setCrop({ src: url, isFile: false });
  };

  const removeCover = () => {
    update.mutate(
      { id: sessionId, input: { coverImageUrl: null } },
      {
        onSuccess: () => notifications.show({ color: 'green', message: t('livehub.edit.coverRemoved') }),
        onError: (error) =>
          notifications.show({ color: 'red', title: t('livehub.edit.coverRemoveFailed'), message: errorText(error, t('livehub.edit.coverRemoveFailed')) }),
      },
    );
  };

  const choices = lotImageChoices(detail.lots);

  return (
    <Stack gap="sm">
      <Title order={3} size="h6">
        {t('livehub.edit.cover')}
      </Title>
      <Group align="flex-start" gap="md" wrap="wrap">
        <Box w={108} style={{ aspectRatio: '9 / 16', borderRadius: 10, overflow: 'hidden', flex: 'none' }} bg="gray.1">
          {cover ? (
            <Image src={cover} alt={t('livehub.edit.coverAlt')} w="100%" h="100%" fit="cover" />
          ) : (
            <Center h="100%" c="dimmed" p={4}>
              <Stack gap={4} align="center">
                <PhotoIcon size={22} />
                <Text size="xs" ta="center">
                  {t('livehub.edit.noCover')}
                </Text>
              </Stack>
            </Center>
          )}
        </Box>
        {canEdit && (
          <Stack gap="xs">
            <FileButton onChange={choose} accept="image/*">
              {(props) => (
                <Button {...props} variant="light" leftSection={<UploadIcon size={16} />}>
                  {t('livehub.edit.uploadCover')}
                </Button>
              )}
            </FileButton>
            <Button variant="light" color="gray" leftSection={<PhotoIcon size={16} />} onClick={() => setIsChoosing(true)}>
              {t('livehub.edit.chooseExisting')}
            </Button>
            {cover && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<TrashIcon size={16} />}
                onClick={removeCover}
                loading={update.isPending && update.variables?.input.coverImageUrl === null}
              >
                {t('livehub.edit.removeCover')}
              </Button>
            )}
          </Stack>
        )}
      </Group>
      {problem && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setProblem(null)} closeButtonLabel={t('common.close')}>
          {problem}
        </Alert>
      )}
      <CoverCropModal src={crop?.src ?? null} onClose={() => setCrop(null)} onSave={saveCropped} />
      <Modal
        stackId={HUB_WINDOW.existingImage}
        opened={isChoosing}
        onClose={() => setIsChoosing(false)}
        title={t('livehub.existing.title')}
        size="lg"
        fullScreen={isPhone}
        centered={!isPhone}
        className={isPhone ? PHONE_CONTROLS_CLASS : undefined}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {choices.length === 0 ? (
          <Text size="sm" c="dimmed" role="status">
            {t('livehub.existing.empty')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 3, sm: 4 }} spacing="xs">
            {choices.map((choice) => (
              <UnstyledButton
                key={choice.url}
                onClick={() => pickExisting(choice.url)}
                aria-label={t('livehub.existing.choose', { index: choice.index, name: choice.lotName || t('livehub.picker.unnamed') })}
                style={{
                  borderRadius: 8,
                  overflow: 'hidden',
                  aspectRatio: '1',
                  border: choice.url === cover ? '3px solid var(--mantine-color-martillo-6)' : undefined,
                }}
              >
                <Image src={choice.url} alt="" w="100%" h="100%" fit="cover" />
              </UnstyledButton>
            ))}
          </SimpleGrid>
        )}
      </Modal>
    </Stack>
  );
}
