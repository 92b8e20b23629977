import { addPageStrings } from '../../i18n';
import followStrings from '../../i18n/es-MX.json?section=follow';
import pushPromptStrings from '../../i18n/es-MX.json?section=pushPrompt';

// Seguir, Avísame, the calendar and the alerts' offer travel with these buttons (on the home, the
// seller's page, Mis alertas), not in every page's first load (i18n/parts.ts).
addPageStrings(followStrings);
addPageStrings(pushPromptStrings);
