import { Group, NativeSelect, SegmentedControl, TextInput } from '@mantine/core';
import { USER_ROLE_FILTERS, type UserRoleFilter } from '../../../domain/role-rules.js';
import { SearchIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';

interface UsersToolbarProps {
  role: UserRoleFilter;
  onRoleChange: (role: UserRoleFilter) => void;
  search: string;
  onSearchChange: (search: string) => void;
  /** Enter applies the search at once instead of waiting for the debounce. */
  onSearchSubmit: () => void;
  isCompact: boolean;
}

function isRoleFilter(value: string): value is UserRoleFilter {
  return (USER_ROLE_FILTERS as readonly string[]).includes(value);
}

/** Role filter Todos / Vendedores / Administradores / Compradores (SPEC §2) and the search box. */
export function UsersToolbar({ role, onRoleChange, search, onSearchChange, onSearchSubmit, isCompact }: UsersToolbarProps) {
  const { t } = useTranslation();
  const options = USER_ROLE_FILTERS.map((value) => ({ value, label: t(`users.filters.${value}`) }));
  return (
    <Group gap="sm" align="center" wrap="wrap">
      {isCompact ? (
        // Four segments do not fit a phone's width: the native picker does.
        <NativeSelect
          aria-label={t('users.roleFilterLabel')}
          data={options}
          value={role}
          onChange={(event) => {
            if (isRoleFilter(event.currentTarget.value)) onRoleChange(event.currentTarget.value);
          }}
          w="100%"
        />
      ) : (
        <SegmentedControl
          aria-label={t('users.roleFilterLabel')}
          data={options}
          value={role}
          onChange={(value) => {
            if (isRoleFilter(value)) onRoleChange(value);
          }}
        />
      )}
      <TextInput
        type="search"
        aria-label={t('users.searchLabel')}
        placeholder={t('users.searchPlaceholder')}
        leftSection={<SearchIcon />}
        value={search}
        onChange={(event) => onSearchChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onSearchSubmit();
          }
        }}
        flex={1}
        miw={isCompact ? '100%' : 220}
        maxLength={100}
        autoComplete="off"
      />
    </Group>
  );
}
