export { Bell } from './bell';
export { SearchForm } from './search-form';
export { headerLinks, SiteHeader } from './site-header';
