import { type LockableAuction, lockedChanges } from '../../../domain/auction-lock.js';
import {
  AUCTION_FIELD_ERRORS,
  type AuctionDetail,
  type AuctionInput,
  type AuctionStatus,
  type Condicion,
  EDITABLE_AUCTION_STATUSES,
  ZAuctionInput,
} from '../../../domain/auctions.js';
import { fieldErrors, topLevelField } from '../../lib/field-errors';

export type EditableStatus = (typeof EDITABLE_AUCTION_STATUSES)[number];
export type AuctionFieldErrorKey = (typeof AUCTION_FIELD_ERRORS)[number];

/** The form's own fields as it holds them (images live in the uploader's state). */
export interface AuctionFormValues {
  name: string;
  description: string;
  categoryId: string | null;
  /** '' while the input is empty. */
  startingPrice: number | '';
  buyNowPrice: number | '';
  condicion: Condicion | null;
  marca: string;
  envio: string;
  /** epoch ms, null for no end time. */
  endTime: number | null;
  /** null: keep the stored status (an auction the Live Hub or the clock moved to 'live' or 'ended'). */
  status: EditableStatus | null;
}

/** Every field an error can be shown on: the form's plus the image list. */
export const AUCTION_FIELDS = [
  'name',
  'description',
  'categoryId',
  'startingPrice',
  'buyNowPrice',
  'condicion',
  'marca',
  'envio',
  'endTime',
  'images',
  'status',
] as const;
export type AuctionField = (typeof AUCTION_FIELDS)[number];
export type FieldErrors = Partial<Record<AuctionField, string>>;

export function isAuctionField(value: string): value is AuctionField {
  return (AUCTION_FIELDS as readonly string[]).includes(value);
}

export function isAuctionFieldErrorKey(value: string): value is AuctionFieldErrorKey {
  return (AUCTION_FIELD_ERRORS as readonly string[]).includes(value);
}

export function isEditableStatus(value: string): value is EditableStatus {
  return (EDITABLE_AUCTION_STATUSES as readonly string[]).includes(value);
}

/** A new auction starts 'Pendiente' (SPEC §4). */
export const EMPTY_VALUES: AuctionFormValues = {
  name: '',
  description: '',
  categoryId: null,
  startingPrice: '',
  buyNowPrice: '',
  condicion: null,
  marca: '',
  envio: '',
  endTime: null,
  status: 'pending',
};

/** An auction the Live Hub or the clock moved on ('live', 'ended') keeps its status unless changed here. */
export function valuesFromDetail(detail: AuctionDetail): AuctionFormValues {
  return {
    name: detail.name,
    description: detail.description,
    categoryId: detail.categoryId,
    startingPrice: detail.startingPrice,
    buyNowPrice: detail.buyNowPrice ?? '',
    condicion: detail.condicion,
    marca: detail.marca ?? '',
    envio: detail.envio ?? '',
    endTime: detail.endTime,
    status: isEditableStatus(detail.status) ? detail.status : null,
  };
}

/**
 * The server moved the end time while the form was open (a late bid's anti-sniping): an end time
 * the seller has not touched follows it, so Save does not send the old one back (refused once
 * there are bids: the end may only move later). One the seller changed is left as typed.
 */
export function followServerEndTime(values: AuctionFormValues, loaded: number | null, server: number | null): AuctionFormValues {
  if (server === loaded || values.endTime !== loaded) return values;
  return { ...values, endTime: server };
}

/** What ZAuctionInput reads: empty inputs become "missing" so the schema names them. */
export function toRawInput(values: AuctionFormValues, images: string[]): Record<string, unknown> {
  return {
    name: values.name,
    description: values.description,
    categoryId: values.categoryId ?? '',
    startingPrice: values.startingPrice === '' ? undefined : values.startingPrice,
    buyNowPrice: values.buyNowPrice === '' ? null : values.buyNowPrice,
    condicion: values.condicion,
    marca: values.marca,
    envio: values.envio,
    endTime: values.endTime,
    images,
    // Omitted, the server keeps the stored status.
    status: values.status ?? undefined,
  };
}

export type AuctionValidation = { ok: true; input: AuctionInput } | { ok: false; errors: Partial<Record<AuctionField, AuctionFieldErrorKey>> };

/** What the schedule rules compare against: the auction as loaded (null for a new one). */
export interface ValidationContext {
  initial: { endTime: number | null; status: AuctionStatus } | null;
  now: number;
  /** The auction as bidders saw it, when it has bids (what they relied on is locked); null otherwise. */
  locked?: LockableAuction | null;
}

/** The server's lock rule on what the form holds, so a change it would refuse shows before Save. */
function lockErrors(values: AuctionFormValues, images: string[], locked: LockableAuction): Partial<Record<AuctionField, AuctionFieldErrorKey>> {
  return lockedChanges(
    locked,
    {
      ...values,
      startingPrice: values.startingPrice === '' ? Number.NaN : values.startingPrice,
      buyNowPrice: values.buyNowPrice === '' ? null : values.buyNowPrice,
      images,
      status: values.status ?? undefined,
    },
    { hasBids: true },
  );
}

/**
 * The server's schedule rules, checked here too so they show with the rest: an active auction needs
 * an end time, and an end time set now (or an auction made active now) must close in the future.
 */
function scheduleError(values: AuctionFormValues, context: ValidationContext): AuctionFieldErrorKey | null {
  const { initial, now } = context;
  const status = values.status ?? initial?.status ?? 'pending';
  const endTimeChanged = !initial || values.endTime !== initial.endTime;
  const statusChanged = !initial || status !== initial.status;
  if (!endTimeChanged && !statusChanged) return null;
  if (values.endTime !== null && endTimeChanged && values.endTime <= now) return 'endTimePast';
  if (status === 'active' && values.endTime === null) return 'endTimeRequired';
  if (status === 'active' && statusChanged && values.endTime !== null && values.endTime <= now) return 'endTimePast';
  return null;
}

/** Runs the server's own schema (and its schedule rules); the first problem of each field is kept, every field at once. */
export function validateAuction(values: AuctionFormValues, images: string[], context: ValidationContext): AuctionValidation {
  const result = ZAuctionInput.safeParse(toRawInput(values, images));
  const errors: Partial<Record<AuctionField, AuctionFieldErrorKey>> = result.success
    ? {}
    : fieldErrors(result.error.issues, topLevelField(isAuctionField), (message, field) => (isAuctionFieldErrorKey(message) ? message : fallbackKey(field)));
  const schedule = errors.endTime ? null : scheduleError(values, context);
  if (schedule) errors.endTime = schedule;
  const locks = context.locked ? lockErrors(values, images, context.locked) : {};
  for (const [field, code] of Object.entries(locks) as [AuctionField, AuctionFieldErrorKey][]) errors[field] ??= code;
  if (!result.success || schedule || Object.keys(locks).length > 0) return { ok: false, errors };
  const data = result.data;
  // endTime travels as epoch ms (ARCHITECTURE: epoch milliseconds in JSON).
  return { ok: true, input: { ...data, endTime: data.endTime ? data.endTime.getTime() : null } };
}

/** An issue zod raised itself (a wrong type, say) still gets a sensible catalogue message. */
function fallbackKey(field: AuctionField): AuctionFieldErrorKey {
  switch (field) {
    case 'name':
      return 'nameRequired';
    case 'description':
      return 'descriptionRequired';
    case 'categoryId':
      return 'categoryRequired';
    case 'startingPrice':
      return 'startingPriceRequired';
    case 'buyNowPrice':
      return 'priceInvalid';
    case 'condicion':
      return 'condicionInvalid';
    case 'endTime':
      return 'endTimeInvalid';
    case 'images':
      return 'imageInvalid';
    case 'status':
      return 'statusInvalid';
    case 'marca':
    case 'envio':
      return 'invalid';
  }
}

/** A cheap structural snapshot for "has anything changed since opening". */
export function snapshot(values: AuctionFormValues, imageKeys: string[]): string {
  return JSON.stringify([values, imageKeys]);
}
