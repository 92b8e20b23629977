import {
  QUICK_AUCTION_DEFAULT_STATUS,
  QUICK_AUCTION_RESET_STATUS,
  type QuickAuctionInput,
  type QuickAuctionStatus,
  type QuickTimerPreset,
  ZQuickAuction,
} from '../../domain/live.js';
import { issuesToErrors, type Parsed, toNumber } from './session-form';

/** 'Agregar subasta rápida' (SPEC §5 "Quick auction"): the form's values and rules. */
export interface QuickAuctionValues {
  name: string;
  startingPrice: string | number;
  /** Stored image URLs, in the order chosen. */
  images: string[];
  timerSeconds: QuickTimerPreset;
  status: QuickAuctionStatus;
  addToSession: boolean;
}

/** The form as it opens: status live, the checkbox on. */
export const INITIAL_QUICK_VALUES: QuickAuctionValues = {
  name: '',
  startingPrice: '',
  images: [],
  timerSeconds: null,
  status: QUICK_AUCTION_DEFAULT_STATUS,
  addToSession: true,
};

/** After a success the form resets with status active (SPEC §5). */
export const RESET_QUICK_VALUES: QuickAuctionValues = { ...INITIAL_QUICK_VALUES, status: QUICK_AUCTION_RESET_STATUS };

/** Needs a non-empty trimmed name and a starting price (an integer, 0 or more). */
export function canSubmitQuickAuction(values: Pick<QuickAuctionValues, 'name' | 'startingPrice'>): boolean {
  return values.name.trim() !== '' && toNumber(values.startingPrice) !== undefined;
}

export function parseQuickAuction(values: QuickAuctionValues): Parsed<QuickAuctionInput> {
  const parsed = ZQuickAuction.safeParse({
    name: values.name,
    startingPrice: toNumber(values.startingPrice),
    images: values.images,
    timerSeconds: values.timerSeconds,
    status: values.status,
    addToSession: values.addToSession,
  });
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error) };
  return { ok: true, value: parsed.data };
}

/** The preset select's value ('none', '15', ...) and back. */
export function presetToValue(preset: QuickTimerPreset): string {
  return preset === null ? 'none' : String(preset);
}
export function valueToPreset(value: string | null): QuickTimerPreset {
  if (value === '15' || value === '30' || value === '60' || value === '120') return Number(value) as QuickTimerPreset;
  return null;
}
