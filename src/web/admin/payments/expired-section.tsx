/** Expired bills: built by the unpaid-bills work (Segunda oportunidad, a future show, release; strikes). */
export function ExpiredSection(_props: { isMobile: boolean }) {
  return null;
}
