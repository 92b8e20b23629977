import { useCallback, useState } from 'react';

/** Where the buyer's 'Ahorro de datos' choice is kept: it holds for every show on this device. */
export const DATA_SAVER_STORAGE_KEY = 'martillo.dataSaver';

/** The stored choice; a browser that blocks storage (private mode) starts with the video on. */
export function readDataSaver(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage?.getItem(DATA_SAVER_STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function writeDataSaver(storage: Pick<Storage, 'setItem' | 'removeItem'> | null, on: boolean): void {
  try {
    if (on) storage?.setItem(DATA_SAVER_STORAGE_KEY, 'on');
    else storage?.removeItem(DATA_SAVER_STORAGE_KEY);
  } catch {
    // Storage full or blocked: the choice still holds for this page.
  }
}

const browserStorage = (): Storage | null => (typeof window === 'undefined' ? null : window.localStorage);

/**
 * 'Ahorro de datos' for prepaid plans: the show plays its sound only (the video is never sent to
 * this phone), while the bid panel and the chat stay. Remembered on the device.
 */
export function useDataSaver(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readDataSaver(browserStorage()));
  const change = useCallback((next: boolean) => {
    writeDataSaver(browserStorage(), next);
    setOn(next);
  }, []);
  return [on, change];
}
