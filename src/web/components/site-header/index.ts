export { Bell } from './bell';
export { headerLinks } from './header-links';
export { SearchForm } from './search-form';
export { SiteHeader } from './site-header';
