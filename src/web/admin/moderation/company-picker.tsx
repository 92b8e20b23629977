import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useCompanies } from '../../api/companies';
import { useTranslation } from '../../i18n';
import { MAX_SEARCH_LENGTH } from '../panel-url';

/** A platform admin's choice of company, searched on the server by name as they type. */
export function ModerationCompanyPicker({ value, onChange }: { value: string | null; onChange: (companyId: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const list = useCompanies({ search: debounced.slice(0, MAX_SEARCH_LENGTH), page: 1, pageSize: 20 });
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const options = (list.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }));
  // The chosen company stays an option while another search is shown.
  const data = chosen && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options;

  return (
    <Select
      label={t('companies.moderation.companyLabel')}
      placeholder={t('companies.moderation.companyPlaceholder')}
      searchable
      data={data}
      value={value}
      onChange={(next, option) => {
        setChosen(next && option ? { value: next, label: option.label } : null);
        onChange(next);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      // The server searched already; the list shows what it answered.
      filter={({ options: all }) => all}
      nothingFoundMessage={list.isFetching ? t('common.loading') : t('companies.moderation.companyNone')}
      maxLength={MAX_SEARCH_LENGTH}
    />
  );
}
