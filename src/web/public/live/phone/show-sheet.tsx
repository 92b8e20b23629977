import { Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { NativeDialog } from '../../../components/native-dialog';
import { useTranslation } from '../../../i18n';
import { NotOfferedLots, ResultLots, UpcomingLots } from '../lot-lists';
import type { ShowModel } from '../show-model';
import classes from './phone-lot.module.css';

/** The sheet's open state and its lists, held by the show so a new lot on the block does not close it. */
export interface SheetControl {
  isOpen: boolean;
  setOpen: (open: boolean) => void;
  lists: ReactNode;
}

/** The bottom sheet: another amount or a maximum (when a lot runs), the lots to come and the results. */
export function ShowSheet({ sheet, children }: { sheet: SheetControl; children?: ReactNode }) {
  const { t } = useTranslation();
  if (!sheet.isOpen) return null;
  return (
    <NativeDialog title={t('live.phone.sheetTitle')} size="sheet" closable onClose={() => sheet.setOpen(false)}>
      <Stack gap="md" data-testid="show-sheet">
        {children}
        {sheet.lists}
      </Stack>
    </NativeDialog>
  );
}

/** The secondary control: opens the sheet. */
export function SheetButton({ sheet, label, wide }: { sheet: SheetControl; label: string; wide?: boolean }) {
  return (
    <Button
      variant="white"
      color="dark"
      size="lg"
      className={wide ? classes.primary : classes.more}
      onClick={() => sheet.setOpen(true)}
      aria-haspopup="dialog"
      data-testid="open-sheet"
    >
      {label}
    </Button>
  );
}

/** What comes next and what sold, as on the wide page. */
export function ShowLists({ show }: { show: ShowModel }) {
  const { t } = useTranslation();
  const isEnded = show.pageState === 'ended';
  return (
    <>
      {!isEnded && <UpcomingLots lots={show.upcoming} heading={t(show.isBeforeShow ? 'live.upcoming.scheduledHeading' : 'live.upcoming.heading')} />}
      {(show.results.length > 0 || isEnded) && <ResultLots lots={show.results} totals={show.totals} />}
      {show.notOffered.length > 0 && <NotOfferedLots lots={show.notOffered} />}
    </>
  );
}
