/** The phone Hub's own windows in the Hub's one Modal.Stack (see hub-windows.ts): the reopen questions of its buttons. */
export const PHONE_WINDOW = { sheetReopen: 'livehub-phone-sheet-reopen', nextReopen: 'livehub-phone-next-reopen' } as const;
