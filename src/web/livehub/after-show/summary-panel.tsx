import type { LiveSessionData } from '../../api/live';

/** The show's summary: built by the summary work (totals, charts, table per buyer, CSV). */
export function SummaryPanel(_props: { detail: LiveSessionData }) {
  return null;
}
