// Every Mantine style, for the admin panel and the Live Hub (their tables, menus, date pickers...).
// main.tsx loads only what the public pages use; this set loads after it and repeats those rules in
// Mantine's own order, before the screens' own CSS (issue 14).
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
