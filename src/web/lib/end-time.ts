import { APP_TIME_ZONE } from './dates';
import { dayjs } from './dayjs';

/** The picker's wall-clock string ('YYYY-MM-DD HH:mm:ss'), always read as Mexico City time. */
const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** How the chosen moment is spelled out under the picker. */
export const CHOSEN_FORMAT = 'dddd D [de] MMMM [de] YYYY, HH:mm:ss';

export function toMexicoWallTime(ms: number | null): string | null {
  if (ms === null) return null;
  return dayjs(ms).tz(APP_TIME_ZONE).format(PICKER_FORMAT);
}

/** SPEC §5: an invalid date gives null. */
export function fromMexicoWallTime(value: string | null): number | null {
  if (!value) return null;
  const instant = dayjs.tz(value, APP_TIME_ZONE);
  return instant.isValid() ? instant.valueOf() : null;
}

/** now + N minutes, to the whole second. */
export function presetEndTime(minutes: number, now: number = Date.now()): number {
  return Math.floor((now + minutes * 60_000) / 1000) * 1000;
}
