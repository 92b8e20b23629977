// Every Mantine style, for the admin panel and the Live Hub (their tables, menus, date pickers...).
// main.tsx loads only what the public pages use; this set loads after it and repeats those rules in
// Mantine's own order, before the screens' own CSS, so a buyer's
// first visit does not block on stylesheets only the panel needs.
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
