/** Room names, in one place: `auction:<id>`, `session:<id>`, `company:<id>` (STYLE.md). */
export const rooms = {
  auction: (id: string) => `auction:${id}`,
  session: (id: string) => `session:${id}`,
  company: (id: string) => `company:${id}`,
  user: (id: string) => `user:${id}`,
  authSession: (id: string) => `authsession:${id}`,
  admins: 'admins',
} as const;
