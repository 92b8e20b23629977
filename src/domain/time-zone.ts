/** Martillo's clock: prices, shows and deadlines are said in Mexico City's time (UTC−6 all year since 2022). */
export const MEXICO_CITY_TZ = 'America/Mexico_City';
