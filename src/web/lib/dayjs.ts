import dayjs from 'dayjs';
import 'dayjs/locale/es';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { APP_TIME_ZONE } from './dates';

/**
 * dayjs for the date pickers (Mantine's, in the auction form and the Live Hub) and their
 * Mexico City wall-clock values: Spanish, Mexico City by default. Only the panel and the Live Hub
 * load it; the public pages format dates with Intl (dates.ts).
 */
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.locale('es');
dayjs.tz.setDefault(APP_TIME_ZONE);

export { dayjs };
