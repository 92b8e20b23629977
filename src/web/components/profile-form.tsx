import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useMemo, useState } from 'react';
import type { Me } from '../../domain/api-types.js';
import type { Profile } from '../../domain/profile.js';
import { isApiError } from '../api/client';
import { usePublicConfig } from '../api/config';
import { useSaveProfile } from '../api/profile';
import { addPageStrings, useTranslation } from '../i18n';
import profileStrings from '../i18n/es-MX.json?section=profile';
import { serverFieldErrors } from '../lib/field-errors';
import {
  cachedDialCodeSelectData,
  filterDialCodes,
  initialProfileValues,
  isProfileField,
  type ProfileField,
  type ProfileFormValues,
  validateProfile,
  withCurrentDialCode,
} from '../lib/profile-form';
import { profileFormShows } from './profile-form-shows';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(profileStrings);

type FieldErrors = Partial<Record<ProfileField, string>>;

interface ProfileFormProps {
  me: Me;
  profile: Profile;
  onClose: () => void;
}

export function ProfileForm({ me, profile, onClose }: ProfileFormProps) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const [values, setValues] = useState<ProfileFormValues>(() => initialProfileValues(profile));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const dialCodes = useMemo(() => withCurrentDialCode(cachedDialCodeSelectData(), values.whatsappCountryCode), [values.whatsappCountryCode]);
  const config = usePublicConfig();
  const shows = profileFormShows({ roles: me.roles, profile }, config.data?.signIn);

  function update<K extends ProfileField>(field: K, value: ProfileFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  }

  function handleSaveError(error: unknown) {
    if (isApiError(error) && error.status === 401) {
      setFormError(t('profile.noUser'));
      return;
    }
    if (isApiError(error) && error.status === 400) {
      const { fields } = serverFieldErrors(error.fields, isProfileField);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFormError(error.message || t('profile.saveFailed'));
      return;
    }
    setFormError(t('profile.saveFailed'));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFormError(null);
    const result = validateProfile(values);
    if (!result.ok) {
      const messages: FieldErrors = {};
      for (const [field, key] of Object.entries(result.errors)) {
        if (isProfileField(field) && key) messages[field] = t(`profile.errors.${key}`);
      }
      setErrors(messages);
      return;
    }
    setErrors({});
    save.mutate(result.input, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: t('profile.saved'), message: t('profile.savedMessage') });
        onClose();
      },
      onError: handleSaveError,
    });
  }

  const firstName = profile.firstName ?? me.user.displayName ?? '';

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {shows.sells ? t('profile.intro') : t('profile.introBuyer')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('profile.fields.firstName')}
            description={shows.googleHint ? t('profile.fields.firstNameHint') : t('profile.fields.firstNameHintAccount')}
            value={firstName}
            readOnly
            variant="filled"
          />
          <TextInput label={t('profile.fields.email')} value={profile.email || me.user.email} readOnly variant="filled" type="email" />
        </SimpleGrid>
        <TextInput
          label={t('profile.fields.lastName')}
          value={values.lastName}
          onChange={(event) => update('lastName', event.currentTarget.value)}
          error={errors.lastName}
          autoComplete="family-name"
          required
          maxLength={80}
        />
        {/* A seller's business name; a buyer has none, and a company member's would not name its company (its admins do that in 'Empresa'). */}
        {shows.businessName && (
          <TextInput
            label={t('profile.fields.companyName')}
            description={t('profile.fields.companyNameHint')}
            value={values.companyName}
            onChange={(event) => update('companyName', event.currentTarget.value)}
            error={errors.companyName}
            autoComplete="organization"
            maxLength={120}
          />
        )}
        <Group align="flex-start" gap="sm" wrap="wrap">
          <Select
            label={t('profile.fields.countryCode')}
            data={dialCodes}
            value={values.whatsappCountryCode}
            onChange={(value) => update('whatsappCountryCode', value ?? '')}
            error={errors.whatsappCountryCode}
            nothingFoundMessage={t('profile.fields.countrySearchEmpty')}
            searchable
            filter={filterDialCodes}
            // Typing replaces the chosen country instead of appending to '+52 México'.
            onFocus={(event) => event.currentTarget.select()}
            onClick={(event) => event.currentTarget.select()}
            allowDeselect={false}
            required
            w={{ base: '100%', xs: 220 }}
            maxDropdownHeight={280}
            // Inside the dialog: a portal would put the list in the page behind it, which the dialog makes
            // inert; fixed, so the list is not cut off by the dialog's own scrolling.
            comboboxProps={{ withinPortal: false, floatingStrategy: 'fixed' }}
          />
          <TextInput
            label={t('profile.fields.whatsappLocal')}
            description={t('profile.fields.whatsappLocalHint')}
            value={values.whatsappLocal}
            onChange={(event) => update('whatsappLocal', event.currentTarget.value)}
            error={errors.whatsappLocal}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            required
            flex={1}
            miw={200}
          />
        </Group>
        <Checkbox
          label={t('profile.fields.consent')}
          checked={values.whatsappConsentGiven}
          onChange={(event) => update('whatsappConsentGiven', event.currentTarget.checked)}
          error={errors.whatsappConsentGiven}
          required
        />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('profile.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={save.isPending}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
