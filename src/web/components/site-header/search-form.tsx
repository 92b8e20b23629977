import { Button, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { SEARCH_PATH } from '../../routes';
import { SearchIcon } from './header-icons';

interface SearchFormProps {
  /** What the box shows; uncontrolled (a plain form to /buscar) when absent. */
  value?: string;
  onChange?: (value: string) => void;
  /** The search page stays where it is: it handles the submit itself. */
  onSubmit?: (value: string) => void;
  /** A chosen category travels with the search (?categoria=). */
  categoryId?: string | null;
  label: string;
  placeholder: string;
  size?: 'sm' | 'md';
  autoFocus?: boolean;
}

/**
 * The search box: a GET form to /buscar?q= (it works before the page's code has arrived), or the
 * search page's own live box when `onSubmit` is given.
 */
export function SearchForm({ value, onChange, onSubmit, categoryId, label, placeholder, size = 'md', autoFocus }: SearchFormProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (!onSubmit) return;
    event.preventDefault();
    const q = new FormData(event.currentTarget).get('q');
    onSubmit(typeof q === 'string' ? q : '');
  };
  return (
    <search style={{ display: 'block', width: '100%' }}>
      <form action={SEARCH_PATH} method="get" onSubmit={submit}>
        <TextInput
          type="search"
          name="q"
          aria-label={label}
          placeholder={placeholder}
          size={size}
          radius="xl"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={100}
          leftSection={<SearchIcon size={18} />}
          autoFocus={autoFocus}
          {...(value !== undefined ? { value, onChange: (event) => onChange?.(event.currentTarget.value) } : {})}
          rightSectionWidth={84}
          rightSectionPointerEvents="all"
          rightSection={
            <Button type="submit" size="compact-sm" radius="xl" mr={4}>
              {t('header.searchSubmit')}
            </Button>
          }
        />
        {categoryId ? <input type="hidden" name="categoria" value={categoryId} /> : null}
      </form>
    </search>
  );
}
