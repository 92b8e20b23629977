import type { ComboboxItem, ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import type { z } from 'zod';
import { type DialCodeOption, dialCodeOptions } from '../../domain/phone.js';
import { type Profile, ZProfileInput } from '../../domain/profile.js';
import { foldText } from '../../domain/text.js';
import { fieldErrors, topLevelField } from './field-errors';

/** The editable fields of 'Completa Tu Perfil', as the form holds them. */
export interface ProfileFormValues {
  lastName: string;
  companyName: string;
  whatsappCountryCode: string;
  whatsappLocal: string;
  whatsappConsentGiven: boolean;
}
export type ProfileField = keyof ProfileFormValues;
export type ProfileOutput = z.output<typeof ZProfileInput>;

export const DEFAULT_DIAL_CODE = '+52';

/** ZProfileInput's issue messages; each is a key under `profile.errors` in the catalogue. */
export const PROFILE_ERROR_KEYS = [
  'lastNameRequired',
  'tooLong',
  'countryCodeRequired',
  'countryCodeInvalid',
  'whatsappRequired',
  'whatsappInvalid',
  'consentRequired',
  'textInvalid',
] as const;
export type ProfileErrorKey = (typeof PROFILE_ERROR_KEYS)[number];

const FIELDS: readonly ProfileField[] = ['lastName', 'companyName', 'whatsappCountryCode', 'whatsappLocal', 'whatsappConsentGiven'];

export function isProfileErrorKey(value: string): value is ProfileErrorKey {
  return (PROFILE_ERROR_KEYS as readonly string[]).includes(value);
}

export function isProfileField(value: string): value is ProfileField {
  return (FIELDS as readonly string[]).includes(value);
}

export function initialProfileValues(profile: Profile | undefined): ProfileFormValues {
  return {
    lastName: profile?.lastName ?? '',
    companyName: profile?.companyName ?? '',
    whatsappCountryCode: profile?.whatsappCountryCode || DEFAULT_DIAL_CODE,
    whatsappLocal: profile?.whatsappLocal ?? '',
    whatsappConsentGiven: profile?.whatsappConsentGiven ?? false,
  };
}

export type ProfileValidation = { ok: true; input: ProfileOutput } | { ok: false; errors: Partial<Record<ProfileField, ProfileErrorKey>> };

/** Runs the server's own schema in the browser; the first problem of each field is kept. */
export function validateProfile(values: ProfileFormValues): ProfileValidation {
  const result = ZProfileInput.safeParse(values);
  if (result.success) return { ok: true, input: result.data };
  const errors = fieldErrors(result.error.issues, topLevelField(isProfileField), (message, field) =>
    isProfileErrorKey(message) ? message : fallbackKey(field),
  );
  return { ok: false, errors };
}

/** An issue zod raised itself (a wrong type, say) still gets a sensible catalogue message. */
function fallbackKey(field: ProfileField): ProfileErrorKey {
  switch (field) {
    case 'lastName':
      return 'lastNameRequired';
    case 'companyName':
      return 'tooLong';
    case 'whatsappCountryCode':
      return 'countryCodeRequired';
    case 'whatsappLocal':
      return 'whatsappRequired';
    case 'whatsappConsentGiven':
      return 'consentRequired';
  }
}

export interface DialCodeSelectItem {
  value: string;
  label: string;
}

let dialCodeItems: DialCodeSelectItem[] | null = null;

/** '+52 México' first, '+1 USA/Canadá' second, then every other code by country name. */
export function dialCodeSelectData(options: DialCodeOption[] = dialCodeOptions()): DialCodeSelectItem[] {
  return options.map((option) => ({ value: option.dialCode, label: `${option.dialCode} ${option.label}` }));
}

export function cachedDialCodeSelectData(): DialCodeSelectItem[] {
  dialCodeItems ??= dialCodeSelectData();
  return dialCodeItems;
}

/** A stored code the list lacks (an old record, say) stays selectable instead of showing blank. */
export function withCurrentDialCode(items: DialCodeSelectItem[], current: string): DialCodeSelectItem[] {
  if (!current || items.some((item) => item.value === current)) return items;
  return [{ value: current, label: current }, ...items];
}

/** Accent- and case-insensitive: 'mexico', 'Méx' and '52' all find '+52 México'. */
export function matchesDialCode(label: string, search: string): boolean {
  const needle = foldText(search).replace(/^\+/, '');
  return needle === '' || foldText(label).includes(needle);
}

function isOption(item: ComboboxParsedItem): item is ComboboxItem {
  return 'value' in item;
}

export const filterDialCodes: OptionsFilter = ({ options, search }) => options.filter((item) => isOption(item) && matchesDialCode(item.label, search));
